/** Ids as a set is kept: each once, ascending. */
export function idSet(ids: Iterable<number>): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** Collects `{key, value}` pairs into a list per key, keeping their order. */
export function listsByKey(pairs: Iterable<{ key: number; value: number }>): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  for (const { key, value } of pairs) {
    const list = lists.get(key);
    if (list) list.push(value);
    else lists.set(key, [value]);
  }
  return lists;
}
