/**
 * Fixed exchange rates used by the demo (units of each currency per 1 EUR).
 * They are made-up constants so the demo has no network dependency; a real
 * server would fetch them from an upstream API.
 */
export const CURRENCIES = ['EUR', 'USD', 'GBP', 'JPY', 'CHF'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const RATES_PER_EUR: Readonly<Record<Currency, number>> = {
  EUR: 1,
  USD: 1.1,
  GBP: 0.85,
  JPY: 160,
  CHF: 0.95,
};

export function isCurrency(value: string): value is Currency {
  return (CURRENCIES as readonly string[]).includes(value);
}

/** How many units of `to` one unit of `from` buys. */
export function rateBetween(from: Currency, to: Currency): number {
  return RATES_PER_EUR[to] / RATES_PER_EUR[from];
}

/** Rounds to the currency's minor unit (JPY has none). */
export function roundMoney(amount: number, currency: Currency): number {
  const digits = currency === 'JPY' ? 0 : 2;
  const factor = 10 ** digits;
  return Math.round(amount * factor) / factor;
}
