const digitsOf = (text: string): number[] => [...text.replace(/\D/g, '')].map(Number);

const allSame = (digits: readonly number[]): boolean => digits.every((digit) => digit === digits[0]);

/** Luhn check of a payment card number of 13 to 19 digits (spaces and dashes ignored; one repeated digit refused). */
export function isValidCardNumber(text: string): boolean {
  const digits = digitsOf(text);
  if (digits.length < 13 || digits.length > 19 || allSame(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits[digits.length - 1 - i];
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

// Brazilian mod-11 check digit over `digits` with `weights` (CPF: remainder < 2 → 0, else 11 − remainder; same for CNPJ).
function mod11Digit(digits: readonly number[], weights: readonly number[]): number {
  const remainder = weights.reduce((sum, weight, i) => sum + weight * digits[i], 0) % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** True for a Brazilian CPF (11 digits, dots and dash ignored) whose two check digits are right. */
export function isValidCpf(text: string): boolean {
  const digits = digitsOf(text);
  if (digits.length !== 11 || allSame(digits)) return false;
  const first = mod11Digit(digits, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(digits, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return digits[9] === first && digits[10] === second;
}

/** True for a Brazilian CNPJ (14 digits, punctuation ignored) whose two check digits are right. */
export function isValidCnpj(text: string): boolean {
  const digits = digitsOf(text);
  if (digits.length !== 14 || allSame(digits)) return false;
  const first = mod11Digit(digits, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(digits, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return digits[12] === first && digits[13] === second;
}
