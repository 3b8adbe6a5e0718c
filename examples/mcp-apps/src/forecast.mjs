// @ts-check
/**
 * A made-up forecast, the same for the same city and day, so the example needs
 * no network and its tests can predict every number.
 */

/** @typedef {'C' | 'F'} Unit */
/** @typedef {{ date: string, sky: string, high: number, low: number }} ForecastDay */
/** @typedef {{ city: string, unit: Unit, days: ForecastDay[] }} Forecast */

const SKIES = ['sunny', 'partly cloudy', 'cloudy', 'showers', 'rain', 'windy'];

/** @param {string} text */
function seed(text) {
  let h = 2166136261;
  for (const ch of text.toLowerCase()) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619) >>> 0;
  return h;
}

/** @param {number} celsius @param {Unit} unit */
const inUnit = (celsius, unit) => (unit === 'F' ? Math.round((celsius * 9) / 5 + 32) : celsius);

/**
 * @param {string} city
 * @param {number} days 1 to 7
 * @param {Unit} unit
 * @param {Date} [from] the first day (default: today, UTC)
 * @returns {Forecast}
 */
export function forecast(city, days, unit, from = new Date()) {
  const base = seed(city);
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  return {
    city,
    unit,
    days: Array.from({ length: days }, (_, i) => {
      const n = (base >>> (i % 24)) + i * 7919;
      const high = 8 + (n % 20);
      return {
        date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
        sky: SKIES[n % SKIES.length] ?? 'sunny',
        high: inUnit(high, unit),
        low: inUnit(high - 4 - (n % 6), unit),
      };
    }),
  };
}

/** One line for the model: what the view shows. @param {Forecast} f */
export function summary(f) {
  const first = f.days[0];
  return first
    ? `${f.city}: ${f.days.length}-day forecast, ${first.date} ${first.sky}, ${first.low} to ${first.high} °${f.unit}.`
    : `${f.city}: no forecast.`;
}

/** A Markdown table for hosts that render no views. @param {Forecast} f */
export function table(f) {
  const rows = f.days.map((d) => `| ${d.date} | ${d.sky} | ${d.low} °${f.unit} | ${d.high} °${f.unit} |`);
  return [`Forecast for ${f.city}`, '', '| Day | Sky | Low | High |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
