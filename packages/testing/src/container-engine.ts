import { spawnSync } from 'node:child_process';

let engineReachable: boolean | undefined;

/**
 * Whether testcontainers finds a container engine (Docker, Podman, Testcontainers Cloud...),
 * asked synchronously because jest decides which tests exist before any of them runs. The
 * probe runs testcontainers' own detection in a child process, so it honours the same
 * DOCKER_HOST / TESTCONTAINERS_* settings as starting a container does.
 */
export function isContainerEngineReachable(): boolean {
  if (engineReachable === undefined) {
    const probe = `require(${JSON.stringify(require.resolve('testcontainers'))})
      .getContainerRuntimeClient()
      .then(() => process.exit(0), () => process.exit(1));`;
    const result = spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore', timeout: 30_000 });
    engineReachable = result.status === 0;
  }
  return engineReachable;
}
