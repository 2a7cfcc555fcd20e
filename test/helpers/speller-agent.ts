import { publishedAgent } from './agent-api';
import type { evalApi } from './eval-api';

/**
 * The published agent `speller` linked to the words server `serverId` (real calls in the sandbox), with the eval
 * set `words` whose one case `kiwi` expects a call of `lookup` with `{text: 'kiwi'}`: what an approval evaluation of
 * that server's `lookup` runs.
 */
export async function spellerWithWordsSet(api: ReturnType<typeof evalApi>, serverId: string): Promise<any> {
  const agent = await publishedAgent(api, 'speller', 'gpt-4o');
  await api.send('post', `/api/v1/agents/${agent.id}/mcp-servers`, 200, {
    mcp_server_id: serverId,
    enabled: true,
    sandbox_real_calls: true,
  });
  await api.evalSet('speller', { name: 'words' });
  await api.addCase('speller', 'words', {
    name: 'kiwi',
    session_input: { message: 'look up kiwi' },
    expected_trajectory: [{ tool_name: 'lookup', tool_args: { text: 'kiwi' } }],
  });
  return agent;
}
