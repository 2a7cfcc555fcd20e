/** How a tool name is joined to its server's name when a link sets no `tool_prefix`. */
export const DEFAULT_PREFIX_SEPARATOR = '__';

/** Every tool of the server: the default allowlist of a link. */
export const ALL_TOOLS = '*';

/** What the gateway puts before a server's tool names: the link's `tool_prefix`, else `<server name>__`. */
export function toolPrefixOf(serverName: string, toolPrefix: string | null): string {
  return toolPrefix ?? `${serverName}${DEFAULT_PREFIX_SEPARATOR}`;
}

/** True when a link's allowlist (`["*"]` or names) lets the gateway expose `tool`. */
export function toolAllowed(allowlist: readonly string[], tool: string): boolean {
  return allowlist.includes(ALL_TOOLS) || allowlist.includes(tool);
}
