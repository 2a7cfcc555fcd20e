import { scanEmails } from './email-scan';
import { isValidCardNumber, isValidCnpj, isValidCpf } from './check-digits';
import { matchSpans, withoutOverlaps, type TextSpan } from './text-spans';

/** The personal data kinds the PII guardrail detects. */
export const PII_KINDS = ['email', 'phone', 'payment_card', 'cpf', 'cnpj'] as const;

/** One detectable kind of personal data. */
export type PiiKind = (typeof PII_KINDS)[number];

// Each pattern below bounds how many characters one attempt can read (at most 37), so JavaScript's engine does a
// bounded amount of work per start position: linear in the text. Only the e-mail pattern is unbounded (scanEmails).
// International (+CC …), area code in parentheses, or separated groups; bare digit runs are not taken for phones.
const PHONE =
  /(?<![\w+])(?:\+\d{1,3}[ .-]?(?:\(?\d{1,4}\)?[ .-]?)?\d{3,5}[ .-]?\d{4}|\(\d{2,3}\)[ .-]?\d{4,5}[ .-]?\d{4}|\d{2,3}[ .-]\d{3,5}[ .-]\d{4})(?!\d)/g;
const CARD = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;
const CPF = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g;
const CNPJ = /(?<!\d)\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}(?!\d)/g;

/** E-mail addresses. */
export const findEmails = (text: string): TextSpan[] => scanEmails(text);
/** Phone numbers written as phone numbers (with +country code, (area code) or separated groups). */
export const findPhones = (text: string): TextSpan[] => matchSpans(text, PHONE, 'phone');
/** Payment card numbers that pass the Luhn check. */
export const findPaymentCards = (text: string): TextSpan[] => matchSpans(text, CARD, 'payment_card', isValidCardNumber);
/** CPF numbers whose check digits are right. */
export const findCpfs = (text: string): TextSpan[] => matchSpans(text, CPF, 'cpf', isValidCpf);
/** CNPJ numbers whose check digits are right. */
export const findCnpjs = (text: string): TextSpan[] => matchSpans(text, CNPJ, 'cnpj', isValidCnpj);

// Most specific first: a number claimed as a CNPJ, CPF or card is not reported again as a phone.
const DETECTORS: ReadonlyArray<[PiiKind, (text: string) => TextSpan[]]> = [
  ['cnpj', findCnpjs],
  ['cpf', findCpfs],
  ['payment_card', findPaymentCards],
  ['email', findEmails],
  ['phone', findPhones],
];

/** The personal data of the given kinds in a text, without overlaps, in text order. */
export function findPii(text: string, kinds: readonly PiiKind[] = PII_KINDS): TextSpan[] {
  const found = DETECTORS.filter(([kind]) => kinds.includes(kind)).flatMap(([, detect]) => detect(text));
  return withoutOverlaps(found).sort((a, b) => a.start - b.start);
}
