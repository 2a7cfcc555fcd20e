/**
 * Every bound on what a builder can send or make the platform hold, in one table. The api enforces each at the edge
 * (422 naming the field and the limit) and the worker again where the data is read back, so a row written before a
 * limit existed cannot exhaust a worker either. The README's limits table is this table, with the reasons.
 */
export const LIMITS = {
  /** Tool calls in one conversation (imported or recorded). Agents in the field make tens; 1,000 keeps scoring cheap. */
  toolCallsPerConversation: 1_000,
  /** Tool calls in one case's expected trajectory. */
  toolCallsPerExpectedTrajectory: 1_000,
  /** Messages in one conversation. */
  messagesPerConversation: 1_000,
  /** Turns in one case (`turns`): conversations under test run to tens of turns; each turn may be judged per sample. */
  turnsPerCase: 50,
  /** Turns in one conversation (imported, recorded or live): as many as a case may expect. */
  turnsPerConversation: 50,
  /** Size of a case's session `state` or expected `final_state` as JSON, in bytes: the session's variables, as ADK's
   * `session_input.state` and `final_session_state` hold them, not documents. */
  sessionStateBytes: 32 * 1024,
  /** Size of a case's `conversation_scenario` (a simulated user's starting prompt and plan) as JSON, in bytes. */
  conversationScenarioBytes: 32 * 1024,
  /** Turns a simulated user may play in one scenario (a set's `simulator.max_turns`): each is a simulator call and a
   * whole agent turn, so a case's cost grows with it. */
  turnsPerScenario: 20,
  /** Characters of one simulated user's reply: a user's message, not a document; a longer reply is asked again. */
  simulatorReplyChars: 8_000,
  /** Rubrics on one case: each is a judge call per sample. */
  rubricsPerCase: 20,
  /** Tool mocks on one case, and on one set (its defaults): each sandbox call is matched against them in order. */
  toolMocksPerCase: 100,
  /** Recorded tool responses in one eval set's cassette: each sandbox call not mocked is matched against them. */
  cassetteEntriesPerSet: 1_000,
  /** Size of one recorded response in a cassette as JSON, in bytes: a larger response is not recorded. */
  cassetteResponseBytes: 64 * 1024,
  /** Guardrail events recorded on one conversation. */
  guardrailEventsPerConversation: 200,
  /** Cases in one eval set: the largest run the benchmarks prove (10,000 cases, bounded history). */
  casesPerEvalSet: 10_000,
  /** Size of the body of a bulk import (a set's conversations or cases, JSON or JSONL), in bytes: 10,000 items of a
   * few KiB each; above `BODY_LIMIT` because one request carries a whole set. */
  importBodyBytes: 32 * 1024 * 1024,
  /** Size of the body of an ADK eval result import (`*.evalset_result.json`, either encoding), in bytes: ADK writes each
   * case's invocations and metric results beside its verdicts; above `BODY_LIMIT` because one file holds a whole run. */
  adkResultBytes: 32 * 1024 * 1024,
  /** Size of a `session_input`'s fields beside its `message` (which `textChars` bounds) as JSON, in bytes: context for
   * the agent (a user id, a locale, some state), not documents; a set of 10,000 such cases exports as about 320 MiB. */
  sessionInputBytes: 32 * 1024,
  /** Size of one tool call's `tool_args` (recorded, expected, or a flow node's `parameters`) as JSON, in bytes. */
  toolArgsBytes: 64 * 1024,
  /** Size of an agent's `settings` beside the fields the runtime reads (guardrails and the rest have their own bounds)
   * as JSON, in bytes: the rest is kept for the builder, not read by us. */
  agentSettingsBytes: 64 * 1024,
  /** Size of the `variables` a flow run starts with as JSON, in bytes: they are rendered into the nodes' parameters,
   * and one may carry a whole tool result (`toolResultBytes`) into a node; within the 1 MB body. */
  flowVariablesBytes: 512 * 1024,
  /** Size of an MCP server's `config` (URL and headers, names included) as JSON, in bytes. */
  mcpConfigBytes: 64 * 1024,
  /** Size of one guardrail event's `detail` in an imported conversation as JSON, in bytes: a verdict, not a transcript. */
  guardrailDetailBytes: 16 * 1024,
  /** Size of an imported conversation's `token_usage` as JSON, in bytes: a handful of counters. */
  tokenUsageBytes: 4 * 1024,
  /** Tools one MCP server may advertise. */
  toolsPerMcpServer: 1_000,
  /** Eval runs one approval evaluation starts (one per eval set of each linked agent): each runs the agent live on
   * every case of its set, so a server shared by many agents is evaluated in a bounded batch. */
  approvalEvaluationRuns: 50,
  /** Seconds between two scheduled health checks of an MCP server (`health_check_interval_seconds`): every check is a
   * workflow and a handshake, so not more often than twice a minute; at least once a day. */
  healthCheckIntervalMinSeconds: 30,
  healthCheckIntervalMaxSeconds: 86_400,
  /** MCP servers one workspace registers: each carries a health-check schedule (a workflow every 30 s at most, a
   * process for stdio), so a few hundred covers a team's tools and bounds what one workspace asks of the workers. */
  mcpServersPerWorkspace: 200,
  /** Characters of an OAuth server's pre-registered `auth.client_id`: real ids are tens of characters, a URL at most. */
  mcpOauthClientIdChars: 512,
  /** Characters of an OAuth server's `auth.scopes` (space-separated): a few scopes, sent on every authorization; a
   * scope a server asks for in a step-up (403 `insufficient_scope`) is cut there. */
  mcpOauthScopesChars: 1_024,
  /** Seconds an authorization's `state` stays usable after `POST …/authorize`: a person signing in, not a day. */
  mcpOauthStateTtlSeconds: 600,
  /** Health checks kept per MCP server (older ones are pruned as new ones land). */
  mcpHealthChecksKept: 50,
  /** Size of one tool descriptor (name, description, input schema) as JSON, in bytes. */
  toolDescriptorBytes: 64 * 1024,
  /** Subschemas of one tool's output schema with every `$ref` expanded: checking a value costs at most one step per
   * subschema at each of its parts (an `enum` is one set lookup), so a check stays linear in the value, and compiling
   * it stays in tens of milliseconds; real schemas have tens. A schema past it (or nested deeper than
   * `outputSchemaDepth`) cannot be used: a result of its tool fails the check, naming the limit. */
  outputSchemaNodes: 500,
  outputSchemaDepth: 32,
  /** tools/list pages one listing follows (sync, the gateway): a server needing more is refused, not half-synced. */
  toolListPages: 20,
  /** Size of all of one server's tool descriptors in one listing as JSON, in bytes: what a sync stores and a gateway
   * session holds; `toolsPerMcpServer` descriptors of 4 KiB each. */
  toolListBytes: 4 * 1024 * 1024,
  /** Milliseconds one whole tools/list listing may take, every page included (each page also has its own timeout). */
  toolListMs: 60_000,
  /** Characters of one `nextCursor` an MCP server pages a list with: sent back with the next page and remembered to
   * refuse a repeated one. */
  mcpCursorChars: 4_096,
  /** Size of one MCP response body, in bytes. */
  mcpResponseBytes: 4 * 1024 * 1024,
  /** Resource URIs one gateway session remembers from its lists to route reads and subscriptions to the server that
   * listed them; past it the oldest are forgotten. */
  gatewayResourceRoutes: 10_000,
  /** Characters of a resource URI the gateway matches against the servers' resource templates (a read, subscription
   * or completion of a URI no server listed): the classic longest URL; a longer one is routed by no template. */
  resourceUriChars: 2_048,
  /** Characters of one server's resource templates together that the gateway matches URIs against (in the order
   * listed; the rest are not used): matching costs up to this much per character of the URI; real servers list a
   * handful of templates of tens of characters. */
  resourceTemplateChars: 1_024,
  /** Size of one answer from an LLM provider (judge and agent model calls), in bytes, cut off while reading: a judge
   * verdict is about 1 KiB and a model's longest answer well under 1 MiB; the SDK holds an answer whole in memory. */
  providerResponseBytes: 4 * 1024 * 1024,
  /** Size of one tool result kept in a conversation or flow run, in bytes. */
  toolResultBytes: 256 * 1024,
  /**
   * Judge calls one case may cause, every retry included (HTTP retries, unusable replies asked again, activity
   * attempts). A case needs at most 18 when every reply is usable (9 samples of two judged criteria); the rest absorbs
   * retries. Without it a failing judge could spend about 400 calls of the workspace's key on one case.
   */
  judgeCallsPerCase: 40,
  /** Cached judge verdicts one workspace keeps; past it the oldest are evicted. Each is a short reply (about 1 KiB),
   * so a full cache is about 100 MiB; it holds a whole set of 10,000 cases judged on one criterion at 9 samples. */
  judgeCacheEntriesPerWorkspace: 100_000,
  /** Bytes of cached judge replies one workspace keeps; past it the oldest are evicted. A full cache of typical replies
   * (about 100 MiB) fits, while long replies cannot make the entries' bound a bound of gigabytes. */
  judgeCacheBytesPerWorkspace: 128 * 1024 * 1024,
  /** Size of one judge reply the cache keeps, in bytes (its JSON): a verdict on 20 rubrics with justifications is a
   * few KiB; a longer reply is used but judged afresh next time. */
  judgeReplyBytes: 64 * 1024,
  /** Times a run may score each case (`repeats`): live repeats re-run the agent, so each multiplies the run's cost. */
  repeatsPerRun: 10,
  /** Flaky cases a run summary lists by name (the most flaky first); `flaky_count` counts them all. */
  flakyCasesListed: 100,
  /** Resamples of each bootstrap interval and paired bootstrap (seeded): 1,000 puts the percentiles of a 95% interval
   * within about ±0.01 of their limit, and a 10,000-case run's summary still costs well under a second per criterion. */
  bootstrapResamples: 1_000,
  /** Values one bootstrap draws in all (resamples × values): past it a bootstrap takes fewer resamples (200 for 10,000
   * cases), so a summary or a comparison of the largest run stays a fraction of a second per criterion. */
  bootstrapDraws: 2_000_000,
  /** Searches of one user pattern in one text when redacting: each is linear, but `a*b|a` makes each read the
   * whole text, so past this many the rest is redacted whole. Real redactions find a handful of matches. */
  patternSearchesPerText: 100,
  /** RE2 instructions one user pattern compiles to: finding a match costs up to that much per character, and real
   * patterns (an IBAN, an API key) compile to 15 to 100; a literal pattern of the longest allowed length fits. */
  patternProgramSize: 256,
  /** Characters of one `$regex` argument matcher of an expected tool call: like a guardrail pattern, a rule a person
   * writes (it also compiles to at most `patternProgramSize` RE2 instructions). */
  argPatternChars: 200,
  /** Nodes in one flow: each is an activity and a history event pair; 50 covers every flow we have seen. */
  flowNodes: 50,
  /** Guardrails on one agent: each runs over every input and output, so the list stays short. */
  guardrailsPerAgent: 50,
  /** Patterns in one `blocked_patterns` guardrail. */
  guardrailPatterns: 50,
  /** Characters of one guardrail pattern: longer patterns are a sign of generated input, not a rule. */
  guardrailPatternChars: 200,
  /** Characters of instructions, a user message, an expected response or a rubric: a long prompt fits. */
  textChars: 100_000,
  /** Characters of a conversation's final response or one of its messages: a model's longest answers fit. */
  responseChars: 1_000_000,
  /** Tags on one eval run (each 1–100 characters): a commit, a branch and a few labels fit. */
  tagsPerRun: 10,
  /** Active (neither revoked nor expired) tokens of one owner: personal tokens per user and scope (a workspace's scoped
   * tokens never take the room of the user's others), service tokens per workspace. A person or a CI setup needs a
   * handful; the bound keeps a leaked token from minting without end. */
  activeTokensPerOwner: 100,
  /** Workspaces one user owns, when anyone may create them (WORKSPACE_CREATION=anyone; operators are not bound): each
   * has its own fair-share slots and quotas, so without it one user could multiply their share of the platform. */
  workspacesPerUser: 10,
  /** Models one workspace prices itself (overrides of the built-in price table): a team uses a handful of models. */
  modelPricesPerWorkspace: 200,
  /** Characters of a link's `tool_prefix` (what the gateway puts before each tool name): a short namespace. */
  toolPrefixChars: 64,
  /** Size of one gateway `tools/call`'s `arguments` as JSON, in bytes: a tool's input, not a document upload; the
   * gateway holds it in memory and records it with the session's conversation. */
  gatewayArgumentBytes: 256 * 1024,
  /** Size of one message the gateway relays from an upstream to its client, in bytes (a tool result, any other answer,
   * an error, a notification, a sampling or elicitation request): what a model can use in one step, well under the
   * upstream answer cap (`mcpResponseBytes`); a larger tool result is a tool error, a larger answer, error or request
   * a JSON-RPC error naming the limit, a larger notification is dropped. */
  gatewayResultBytes: 1024 * 1024,
  /** Milliseconds between two `notifications/…/list_changed` of one kind (resources, prompts) the gateway sends one
   * session: an upstream's storm of them reaches the client as at most one per interval, the last change never lost. */
  gatewayListChangedMs: 1_000,
  /** `notifications/resources/updated` the gateway relays to one session per second; past it they are dropped (and
   * counted): a client re-reads what it subscribed to, not every intermediate state. */
  gatewayResourceUpdatesPerSecond: 100,
  /** Milliseconds one gateway tool call may take (a link's `timeout_ms` may lower or raise it up to this): a call that
   * holds a downstream request and an upstream session must end. */
  gatewayCallTimeoutMaxMs: 300_000,
  /** Gateway sessions open at once per workspace on one gateway process: each may hold an upstream session per linked
   * server. */
  gatewaySessionsPerWorkspace: 256,
  /** Stdio server children one gateway process keeps (pooled, shared by sessions, reaped when idle): processes cost. */
  gatewayStdioChildren: 16,
  /** Default and largest page of every list endpoint. */
  pageDefault: 50,
  pageMax: 500,
  /** Length of a list cursor: it holds a row's sort keys (names, times, ids); 4 KiB keeps a next-page URL far below
   * Node's 16 KiB request-header limit. */
  pageCursorChars: 4_096,
  /** Size of a request's URL (path and query string), in bytes: twice a longest cursor with room for the rest of a
   * query; under Node's 16 KiB limit on the request line and headers together, so a long URL is told apart (414). */
  requestUrlBytes: 8_192,
} as const;

export type LimitName = keyof typeof LIMITS;
