/**
 * demo://rates/{currency}: a resource template. The variable completes to the
 * known currency codes; an unknown code is "resource not found".
 */
import { ResourceNotFoundError, type IResourceTemplateInfo } from 'fa-mcp-sdk';
import { CURRENCIES, isCurrency, rateBetween } from '../rates.js';

export const ratesTemplate: IResourceTemplateInfo = {
  uriTemplate: 'demo://rates/{currency}',
  name: 'rates',
  title: 'Exchange rates',
  description: 'Fixed demo exchange rates from one currency to every other.',
  mimeType: 'application/json',
  complete: {
    currency: (value) => CURRENCIES.filter((c) => c.startsWith(value.toUpperCase())),
  },
  read: (uri, variables) => {
    const base = (variables.currency ?? '').toUpperCase();
    if (!isCurrency(base)) throw new ResourceNotFoundError(uri);
    const rates = Object.fromEntries(CURRENCIES.map((c) => [c, Number(rateBetween(base, c).toFixed(6))]));
    return JSON.stringify({ base, rates }, null, 2);
  },
};
