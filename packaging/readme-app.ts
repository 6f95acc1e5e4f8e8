/** The host app of README.md's "Use it in your project", between its two marker comments. */
export function readmeApp(readme: string): string {
  const match = /<!-- readme-app:start -->\s*```ts\n([\s\S]*?)```\s*<!-- readme-app:end -->/.exec(readme);
  if (!match) throw new Error('README.md has no ```ts block between <!-- readme-app:start --> and <!-- readme-app:end -->');
  return match[1]!;
}
