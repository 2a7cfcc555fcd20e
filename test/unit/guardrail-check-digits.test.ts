import assert from 'node:assert/strict';
import { isValidCardNumber, isValidCnpj, isValidCpf } from '../../domain/guardrails/check-digits';

describe('guardrail check digits', () => {
  it('accepts CPFs whose two check digits are right, formatted or bare', () => {
    for (const cpf of ['529.982.247-25', '52998224725', '111.444.777-35', '390.533.447-05'])
      assert.equal(isValidCpf(cpf), true, cpf);
  });

  it('refuses CPFs with a wrong check digit, a repeated digit or the wrong length', () => {
    for (const cpf of [
      '529.982.247-26',
      '529.982.247-15',
      '111.111.111-11',
      '000.000.000-00',
      '5299822472',
      '529982247250',
    ]) {
      assert.equal(isValidCpf(cpf), false, cpf);
    }
  });

  it('accepts CNPJs whose two check digits are right, formatted or bare', () => {
    for (const cnpj of ['11.222.333/0001-81', '11222333000181', '45.997.418/0001-53'])
      assert.equal(isValidCnpj(cnpj), true, cnpj);
  });

  it('refuses CNPJs with a wrong check digit, a repeated digit or the wrong length', () => {
    for (const cnpj of [
      '11.222.333/0001-82',
      '11.222.333/0001-91',
      '00.000.000/0000-00',
      '1122233300018',
      '112223330001811',
    ]) {
      assert.equal(isValidCnpj(cnpj), false, cnpj);
    }
  });

  it('accepts card numbers that pass the Luhn check, with spaces or dashes', () => {
    for (const card of [
      '4111 1111 1111 1111',
      '5555-5555-5555-4444',
      '378282246310005',
      '6011111111111117',
      '4012888888881881',
    ]) {
      assert.equal(isValidCardNumber(card), true, card);
    }
  });

  it('refuses card numbers failing Luhn, of one repeated digit, or too short or long', () => {
    for (const card of [
      '4111 1111 1111 1112',
      '5555555555554445',
      '0000000000000000',
      '411111111111',
      '41111111111111111111',
    ]) {
      assert.equal(isValidCardNumber(card), false, card);
    }
  });
});
