import type { ArgsMatch } from '../../domain/trajectory/arg-matchers';
import type { ExpectedCall } from '../../domain/trajectory/expected-call';
import type { ToolCall } from '../../domain/trajectory/tool-call';
import type { TrajectoryMatch } from '../../domain/trajectory/trajectory-modes';

// The README's worked example ("Trajectory match modes and argument matchers"): the same expected and actual calls
// scored by each mode. The agent searched, sent the receipt too early, then booked, and checked the weather.
export const SEARCH: ToolCall = { tool_name: 'search_flights', tool_args: { to: 'LIS', passengers: 2 } };
export const BOOK: ToolCall = { tool_name: 'book_flight', tool_args: { flight: 'TP123' } };
export const RECEIPT: ToolCall = { tool_name: 'send_receipt', tool_args: { email: 'ana@example.com' } };
export const WEATHER: ToolCall = { tool_name: 'get_weather', tool_args: { city: 'Lisbon' } };

export const EXPECTED: ExpectedCall[] = [SEARCH, BOOK, RECEIPT];
export const ACTUAL: ToolCall[] = [SEARCH, RECEIPT, BOOK, WEATHER];

type ModeExpectation = { score: number; matched: Array<[number, number]>; missing: number[]; extra: number[] };

// search, book in order (the tie with search, receipt keeps the earlier expected call).
const IN_ORDER_PAIRS: Omit<ModeExpectation, 'score'> = {
  matched: [
    [0, 0],
    [1, 2],
  ],
  missing: [2],
  extra: [1, 3],
};
// Every expected call was made once; the weather call is extra.
const ANY_ORDER_PAIRS: Omit<ModeExpectation, 'score'> = {
  matched: [
    [0, 0],
    [1, 2],
    [2, 1],
  ],
  missing: [],
  extra: [3],
};

/** Per mode, by hand: the score and the (expected, actual) index pairs, missing expected and extra actual indices. */
export const BY_MODE: Record<TrajectoryMatch, ModeExpectation> = {
  // Position by position: only 0 ↔ 0 agrees; 1 of max(3, 4).
  exact: { score: 1 / 4, matched: [[0, 0]], missing: [1, 2], extra: [1, 2, 3] },
  // 2 of 3 expected.
  in_order: { score: 2 / 3, ...IN_ORDER_PAIRS },
  // The weather call costs nothing: 3 of 3.
  any_order: { score: 1, ...ANY_ORDER_PAIRS },
  // The same alignment as in_order, divided by the longer list: 2 of max(3, 4).
  lcs: { score: 2 / 4, ...IN_ORDER_PAIRS },
  // lcs's alignment by tool name alone, each pair earning its args_score (all 1 here): (1 + 1) of max(3, 4).
  partial: { score: 2 / 4, ...IN_ORDER_PAIRS },
  // any_order's pairing: precision 3/4, recall 3/3, F1 = 2·3 ÷ (3 + 4).
  f1: { score: 6 / 7, ...ANY_ORDER_PAIRS },
};

const search = (tool_args: Record<string, unknown>, args_match?: ArgsMatch): ExpectedCall => ({
  tool_name: 'search_flights',
  tool_args,
  ...(args_match ? { args_match } : {}),
});

// Argument matchers against the same search call (SEARCH): a name, the expected call, and whether it accepts SEARCH.
export const SEARCH_ARGS_CASES: Array<[name: string, expected: ExpectedCall, accepts: boolean]> = [
  ['exact, keys in another order', search({ passengers: 2, to: 'LIS' }), true],
  ['exact, a key missing', search({ to: 'LIS' }), false],
  ['subset, a key missing', search({ to: 'LIS' }, 'subset'), true],
  ['subset, a key differs', search({ to: 'OPO' }, 'subset'), false],
  ['subset, a key the call lacks', search({ class: 'economy' }, 'subset'), false],
  ['ignore, other args', search({ to: 'OPO' }, 'ignore'), true],
  ['ignore, another tool', { ...BOOK, args_match: 'ignore' }, false],
  ['$regex found', search({ to: { $regex: '^L[A-Z]{2}$' }, passengers: 2 }), true],
  ['$regex not found', search({ to: { $regex: '^OP' }, passengers: 2 }), false],
  ['$regex on a number', search({ to: 'LIS', passengers: { $regex: '2' } }), false],
  ['$any', search({ to: { $any: true }, passengers: 2 }), true],
  ['$any on an absent key', search({ to: 'LIS', passengers: 2, date: { $any: true } }), false],
  ['$number in range', search({ to: 'LIS', passengers: { $number: { min: 1, max: 9 } } }), true],
  ['$number at its bounds', search({ to: 'LIS', passengers: { $number: { min: 2, max: 2 } } }), true],
  ['$number below min', search({ to: 'LIS', passengers: { $number: { min: 3 } } }), false],
  ['$number on a string', search({ to: { $number: {} }, passengers: 2 }), false],
  ['a number by value (2.0, 2e0)', search(JSON.parse('{"to": "LIS", "passengers": 2.0e0}')), true],
  ['a number as a string', search({ to: 'LIS', passengers: '2' }), false],
];
