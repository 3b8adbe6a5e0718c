/**
 * Collections: one resources/read returns several contents, one per item, each under the item's
 * own URI (which reads back on its own). demo://resource/collection/summer-specials is a
 * resource; by-category/{category} and item/{itemId} are templates whose variables complete.
 */
import { ResourceNotFoundError, type IResourceContents, type IResourceData, type IResourceTemplateInfo } from 'fa-mcp-sdk';
import { ICONS } from '../server/icons.js';

interface Item {
  id: string;
  name: string;
  category: string;
  price: number;
  summerSpecial: boolean;
}

export const CATALOG: readonly Item[] = [
  { id: 'sunscreen-spf50', name: 'Sunscreen SPF 50', category: 'beach', price: 12.5, summerSpecial: true },
  { id: 'beach-towel', name: 'Beach towel', category: 'beach', price: 19, summerSpecial: true },
  { id: 'sun-hat', name: 'Sun hat', category: 'apparel', price: 24, summerSpecial: true },
  { id: 'rain-jacket', name: 'Rain jacket', category: 'apparel', price: 89, summerSpecial: false },
  { id: 'camping-stove', name: 'Camping stove', category: 'outdoor', price: 45, summerSpecial: false },
  { id: 'cooler-box', name: 'Cooler box', category: 'outdoor', price: 39, summerSpecial: true },
];

const PREFIX = 'demo://resource/collection/';
export const itemUri = (id: string) => `${PREFIX}item/${id}`;
export const SUMMER_SPECIALS_URI = `${PREFIX}summer-specials`;

const contentsOf = (item: Item): IResourceContents => ({ uri: itemUri(item.id), mimeType: 'application/json', text: JSON.stringify(item) });
const categories = () => [...new Set(CATALOG.map((i) => i.category))];
const startsWith = (prefix: string) => (v: string) => v.startsWith(prefix);

export const summerSpecials: IResourceData = {
  uri: SUMMER_SPECIALS_URI,
  name: 'summer-specials',
  title: 'Summer specials',
  description: 'A collection: every summer special, one content per item under its own URI.',
  mimeType: 'application/json',
  icons: ICONS.resource,
  content: () => CATALOG.filter((i) => i.summerSpecial).map(contentsOf),
};

export const byCategoryTemplate: IResourceTemplateInfo = {
  uriTemplate: `${PREFIX}by-category/{category}`,
  name: 'collection-by-category',
  title: 'Items of a category',
  description: 'A collection: every item of the category, one content per item under its own URI.',
  mimeType: 'application/json',
  icons: ICONS.template,
  complete: { category: (value) => categories().filter(startsWith(value)) },
  read: (uri, { category }) => {
    const items = CATALOG.filter((i) => i.category === category);
    if (items.length === 0) throw new ResourceNotFoundError(uri, `Unknown resource ${uri}: no category ${JSON.stringify(category)} in the catalog`);
    return items.map(contentsOf);
  },
};

export const itemTemplate: IResourceTemplateInfo = {
  uriTemplate: `${PREFIX}item/{itemId}`,
  name: 'collection-item',
  title: 'One item',
  description: 'One item of the catalog.',
  mimeType: 'application/json',
  icons: ICONS.template,
  complete: { itemId: (value) => CATALOG.map((i) => i.id).filter(startsWith(value)) },
  read: (uri, { itemId }) => {
    const item = CATALOG.find((i) => i.id === itemId);
    if (!item) throw new ResourceNotFoundError(uri, `Unknown resource ${uri}: no item ${JSON.stringify(itemId)} in the catalog`);
    return [contentsOf(item)];
  },
};
