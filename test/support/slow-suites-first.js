const Sequencer = require('@jest/test-sequencer').default;

/**
 * The suites that take longest, longest first: with several workers, the run ends when its
 * last suite does, so a drill started last would run on alone. Jest orders by the durations
 * it cached on an earlier run on the machine; a fresh clone (CI) has none and orders by file
 * size, which would start the drills anywhere. Everything else keeps jest's order.
 */
const slowest = [
  /\/test\/failure-drills\.test\.ts$/,
  /\/test\/hostile-battery\.test\.ts$/,
  /\/test\/scheduled-release-drills\.test\.ts$/,
  /\/test\/submission-delivery\.test\.ts$/,
  /\/test\/readme\.test\.ts$/,
  /\/test\/console\.test\.ts$/,
  /\/test\/bulk-dispatch-drills\.test\.ts$/,
  /\/test\/directory-create-drill\.test\.ts$/,
];

class SlowSuitesFirst extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = slowest.findIndex((pattern) => pattern.test(test.path));
      return index === -1 ? slowest.length : index;
    };
    return super
      .sort(tests)
      .map((test, order) => ({ test, order }))
      .sort((a, b) => rank(a.test) - rank(b.test) || a.order - b.order)
      .map(({ test }) => test);
  }
}

module.exports = SlowSuitesFirst;
