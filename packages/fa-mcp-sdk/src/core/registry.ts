/**
 * The registry: the consumer's tools, prompts, resources and resource templates,
 * checked and prepared once at start (names, schemas), and read by every request of
 * every era and transport. A tool schema that cannot fail to compile later
 * (schema-precheck.ts) is compiled on first use or by compileSchemas(), after the
 * first answers; any other is compiled at start, so a broken one stops the start.
 */
import { assertValidDeprecation } from './deprecation.js';
import { assertValidCacheHint } from './cache-hint.js';
import type { RequestContext } from './request-context.js';
import { compilesLater } from './schema-precheck.js';
import { SchemaValidator } from './schema-validator.js';
import { ParamHeaderRules } from './param-headers.js';
import { assertToolName, type ToolNameRule } from './tool-name.js';
import type { IPromptData, IResourceData, IResourceTemplateInfo, ITool, TToolsSource } from './types.js';
import { UriTemplateMatcher } from './uri-template.js';

export interface RegistryInput {
  tools?: TToolsSource;
  prompts?: IPromptData[];
  resources?: IResourceData[];
  /** Resources given as a function (`McpServerData.resources`): resolved per request, after the static ones. */
  resourceSource?: (ctx: RequestContext) => IResourceData[] | Promise<IResourceData[]>;
  resourceTemplates?: IResourceTemplateInfo[];
  excludeTools?: string[];
  /** The rule tool names follow (`mcp.tools.nameRule`; snake_case when absent). */
  toolNameRule?: ToolNameRule;
  /**
   * The per-request view of a tool (MCP Apps: a plain variant for a client that
   * renders no views); undefined hides the tool from that request.
   */
  toolView?: (tool: ITool, ctx: RequestContext) => ITool | undefined;
}

export interface RegisteredTemplate {
  def: IResourceTemplateInfo;
  matcher: UriTemplateMatcher;
}

export class Registry {
  readonly validator = new SchemaValidator();
  /** The tools' `x-mcp-header` declarations, compiled once per schema (checked with the schemas). */
  readonly paramHeaders = new ParamHeaderRules();
  private readonly toolNameRule: ToolNameRule;
  private readonly staticTools: ITool[] | undefined;
  private readonly toolSource: TToolsSource;
  private readonly excluded: Set<string>;
  private readonly toolView: RegistryInput['toolView'];
  private readonly checkedDynamic = new WeakSet<ITool>();
  readonly prompts: ReadonlyMap<string, IPromptData>;
  readonly resources: ReadonlyMap<string, IResourceData>;
  readonly resourceSource: RegistryInput['resourceSource'];
  private readonly checkedResources = new WeakSet<IResourceData>();
  readonly templates: readonly RegisteredTemplate[];

  constructor(input: RegistryInput) {
    this.toolSource = input.tools ?? [];
    this.excluded = new Set(input.excludeTools ?? []);
    this.toolView = input.toolView;
    this.toolNameRule = input.toolNameRule ?? 'snake_case';
    if (Array.isArray(this.toolSource)) {
      this.staticTools = [...this.toolSource];
      this.checkTools(this.staticTools);
    }
    this.prompts = indexBy(input.prompts ?? [], (p) => p.name, 'prompt');
    this.resources = indexBy(input.resources ?? [], (r) => r.uri, 'resource');
    this.resourceSource = input.resourceSource;
    this.prompts.forEach((p) => assertValidDeprecation('prompt', p.name, p.deprecated));
    this.resources.forEach((r) => assertValidDeprecation('resource', r.uri, r.deprecated));
    this.resources.forEach((r) => assertValidCacheHint(`Resource "${r.uri}"`, r.cacheHint));
    this.templates = (input.resourceTemplates ?? []).map((def) => ({ def, matcher: new UriTemplateMatcher(def.uriTemplate) }));
    this.templates.forEach((t) => assertValidCacheHint(`Resource template "${t.def.uriTemplate}"`, t.def.cacheHint));
  }

  /** True when the consumer gave tools as a function (resolved per list/call). */
  get hasDynamicTools(): boolean {
    return !this.staticTools;
  }

  get hasTools(): boolean {
    return !this.staticTools || this.staticTools.length > 0;
  }

  /** The server serves resources: static ones, a function of the request, or templates. */
  get hasResources(): boolean {
    return this.resources.size > 0 || this.resourceSource !== undefined || this.templates.length > 0;
  }

  /** The resources of `resourceSource` for this request, checked as the static ones are (deprecation dates, one URI once). */
  async dynamicResources(ctx: RequestContext): Promise<IResourceData[]> {
    if (!this.resourceSource) return [];
    const resources = await this.resourceSource(ctx);
    if (resources.some((r) => !this.checkedResources.has(r))) {
      indexBy(resources, (r) => r.uri, 'resource');
      for (const r of resources) {
        assertValidDeprecation('resource', r.uri, r.deprecated);
        this.checkedResources.add(r);
      }
    }
    return resources;
  }

  /**
   * Compiles the static tools' schemas not compiled yet (deferred at start): called once the first
   * answers are out, so the first tools/call does not pay for loading ajv. Returns how many it
   * compiled; throws only if ajv refuses a schema the precheck let through (a precheck bug).
   */
  compileSchemas(): number {
    let compiled = 0;
    for (const tool of this.staticTools ?? []) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        if (!schema || this.validator.isCompiled(schema)) continue;
        this.validator.compile(schema);
        compiled++;
      }
    }
    return compiled;
  }

  /** Every tool this context may see, in registration order, without the excluded ones. */
  async listTools(ctx: RequestContext): Promise<ITool[]> {
    const all = this.staticTools ?? (await this.resolveDynamic(ctx));
    const kept = this.excluded.size === 0 ? all : all.filter((t) => !this.excluded.has(t.name));
    const view = this.toolView;
    return view ? kept.flatMap((t) => view(t, ctx) ?? []) : kept;
  }

  async findTool(name: string, ctx: RequestContext): Promise<ITool | undefined> {
    return this.lookupTool(name, ctx);
  }

  /** As findTool, answered at once when the tools are static; a promise only for dynamic tools. */
  lookupTool(name: string, ctx: RequestContext): ITool | undefined | Promise<ITool | undefined> {
    if (this.excluded.has(name)) return undefined;
    if (!this.staticTools) return this.resolveDynamic(ctx).then((all) => this.viewOf(all, name, ctx));
    return this.viewOf(this.staticTools, name, ctx);
  }

  private viewOf(all: readonly ITool[], name: string, ctx: RequestContext): ITool | undefined {
    const tool = all.find((t) => t.name === name);
    return tool && this.toolView ? this.toolView(tool, ctx) : tool;
  }

  isExcluded(name: string): boolean {
    return this.excluded.has(name);
  }

  findTemplate(uri: string): { template: RegisteredTemplate; variables: Record<string, string> } | undefined {
    for (const template of this.templates) {
      const variables = template.matcher.match(uri);
      if (variables) return { template, variables };
    }
    return undefined;
  }

  private async resolveDynamic(ctx: RequestContext): Promise<ITool[]> {
    const source = this.toolSource as Exclude<TToolsSource, ITool[]>;
    const tools = await source(ctx);
    const fresh = tools.filter((t) => !this.checkedDynamic.has(t));
    if (fresh.length > 0) {
      this.checkTools(tools);
      fresh.forEach((t) => this.checkedDynamic.add(t));
    }
    return tools;
  }

  private checkTools(tools: ITool[]): void {
    const seen = new Set<string>();
    for (const tool of tools) {
      assertToolName(tool.name, this.toolNameRule);
      assertValidDeprecation('tool', tool.name, tool.deprecated);
      if (seen.has(tool.name)) throw new Error(`Duplicate tool name "${tool.name}"`);
      seen.add(tool.name);
      if (!tool.inputSchema || tool.inputSchema.type !== 'object') {
        throw new Error(`Tool "${tool.name}": inputSchema must be a JSON Schema with type "object"`);
      }
      try {
        if (!compilesLater(tool.inputSchema)) this.validator.compile(tool.inputSchema);
        if (tool.outputSchema && !compilesLater(tool.outputSchema)) this.validator.compile(tool.outputSchema);
      } catch (err) {
        throw new Error(`Tool "${tool.name}": its schema does not compile: ${(err as Error).message}`);
      }
      this.paramHeaders.of(tool);
    }
  }
}

function indexBy<T>(items: T[], key: (item: T) => string, kind: string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    if (map.has(k)) throw new Error(`Duplicate ${kind} "${k}"`);
    map.set(k, item);
  }
  return map;
}
