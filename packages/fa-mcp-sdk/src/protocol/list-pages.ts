/**
 * The four list methods' pages, the same functions for every connection: a
 * server instance registers one handler for all of its lists, which looks its
 * page up here by method, instead of a closure per list and per connection.
 */
import { canAccess, visibleItems } from '../core/access-check.js';
import type { Core } from '../core/core.js';
import type { Operation } from '../core/pipeline.js';
import { describePrompt } from '../core/prompts.js';
import { describeResource, describeTemplate, listResources } from '../core/resources.js';
import { describeTool } from './tool-wire.js';

export type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

export interface ListPage {
  /** The operation's target name. */
  name: string;
  page(core: Core, op: Operation, cursor: string | undefined): Promise<object>;
}

function withCursor<T extends object>(result: T, nextCursor: string | undefined): T & { nextCursor?: string } {
  return nextCursor ? { ...result, nextCursor } : result;
}

export const LIST_PAGES: Readonly<Record<ListMethod, ListPage>> = {
  'tools/list': {
    name: 'tools',
    async page(core, op, cursor) {
      const tools = visibleItems(await core.registry.listTools(op.ctx), op.ctx, core.hideUnauthorized);
      const page = core.paginator.paginate('tools', tools, (t) => t.name, cursor);
      return withCursor({ tools: page.items.map(describeTool) }, page.nextCursor);
    },
  },
  'prompts/list': {
    name: 'prompts',
    async page(core, op, cursor) {
      const page = core.paginator.paginate('prompts', visibleItems([...core.registry.prompts.values()], op.ctx, core.hideUnauthorized), (p) => p.name, cursor);
      return withCursor({ prompts: page.items.map(describePrompt) }, page.nextCursor);
    },
  },
  'resources/list': {
    name: 'resources',
    async page(core, op, cursor) {
      // Static, then those of a function of the request, then the session's own (core/resources.ts).
      const page = core.paginator.paginate('resources', await listResources(core.registry, op.ctx, core.hideUnauthorized), (r) => r.uri, cursor);
      return withCursor({ resources: page.items.map(describeResource) }, page.nextCursor);
    },
  },
  'resources/templates/list': {
    name: 'templates',
    async page(core, op, cursor) {
      const visible = core.registry.templates.filter((t) => !core.hideUnauthorized || canAccess(t.def, op.ctx));
      const page = core.paginator.paginate('templates', visible, (t) => t.def.uriTemplate, cursor);
      return withCursor({ resourceTemplates: page.items.map((t) => describeTemplate(t.def)) }, page.nextCursor);
    },
  },
};
