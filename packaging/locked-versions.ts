/**
 * The consumer project installs offline, from the store the workspace's `pnpm install` filled. That
 * store holds the versions the workspace's lockfile chose; the consumer's own resolution would pick
 * the newest version each range allows in the registry's metadata, and a release published since
 * the lockfile was written (a new `ws` patch) is then a tarball the store does not have. Pinning
 * every package to the version the lockfile holds makes the consumer's install the same set the
 * workspace installs, as a user's lockfile would.
 */

/**
 * pnpm `overrides` that pin each package of `lockfile` (the text of `pnpm-lock.yaml`) to its locked
 * version. A package the lockfile holds at several versions is pinned per major version
 * (`name@4`, or `name@0.3` below 1.0), the ranges dependents ask for.
 */
export function lockedVersionOverrides(lockfile: string): Record<string, string> {
  const versions = new Map<string, Set<string>>();
  for (const { name, version } of lockedPackages(lockfile)) {
    const seen = versions.get(name) ?? new Set<string>();
    seen.add(version);
    versions.set(name, seen);
  }
  const overrides: Record<string, string> = {};
  for (const [name, seen] of versions) {
    if (seen.size === 1) overrides[name] = [...seen][0]!;
    else for (const version of seen) overrides[`${name}@${majorRange(version)}`] = version;
  }
  return overrides;
}

/**
 * The `name@version` keys of the lockfile's last `packages:` section. pnpm 12 writes the lockfile of
 * pnpm itself (for `packageManager`) as a first document, and the project's after it.
 */
function lockedPackages(lockfile: string): { name: string; version: string }[] {
  const sections = lockfile.split(/^packages:\n/m);
  if (sections.length < 2) throw new Error('pnpm-lock.yaml has no packages: section');
  const section = sections.at(-1)!.split(/^\S/m)[0]!;
  const out: { name: string; version: string }[] = [];
  for (const match of section.matchAll(/^ {2}'?((?:@[^/@\s]+\/)?[^@\s']+)@([^('\s:]+)/gm)) out.push({ name: match[1]!, version: match[2]! });
  if (out.length === 0) throw new Error('pnpm-lock.yaml: no packages found in its packages: section');
  return out;
}

function majorRange(version: string): string {
  const [major, minor] = version.split('.');
  return major === '0' ? `0.${minor}` : major!;
}
