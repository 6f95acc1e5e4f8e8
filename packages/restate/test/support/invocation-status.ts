/** The invocation's status as the Restate server tells it (its SQL introspection on the admin port). */
export async function invocationStatus(adminUrl: string, invocationId: string): Promise<string | undefined> {
  const response = await fetch(`${adminUrl}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: `SELECT status FROM sys_invocation WHERE id = '${invocationId}'` }),
  });
  if (!response.ok) throw new Error(`the admin query answered ${response.status}: ${await response.text()}`);
  const { rows } = (await response.json()) as { rows: Array<{ status: string }> };
  return rows[0]?.status;
}
