/** Resources of this server. `project://version` and `use://auth` are built in. */
import type { IResourceData } from 'fa-mcp-sdk';
import { UNITS } from '../tools/convert-temperature.js';

export const unitsResource: IResourceData = {
  uri: 'temperature://units',
  name: 'temperature_units',
  title: 'Temperature units',
  description: 'The units convert_temperature accepts.',
  mimeType: 'application/json',
  content: () => JSON.stringify({ units: UNITS }),
};

export const resources: IResourceData[] = [unitsResource];
