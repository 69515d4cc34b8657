/**
 * What a profile shows before any call: its tools/list listing, the capabilities it advertises and
 * its `initialize` answer. No SDK at run time, so the first answers (first-answers.ts) can be
 * written before the SDK is loaded, from the same code the SDK server is built with.
 */
import type { Completable } from './completions.js';
import type { PromptDeclaration } from './prompts.js';
import type { ResourceDeclaration, ResourceTemplateDeclaration } from './resources.js';
import type { Profile } from '../profile.js';
import type { JsonRpcRules } from '../wire/jsonrpc-rules.js';

/** The protocol versions `initialize` negotiates, as the SDK's own list (the first-answers test holds them equal). */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** The tools/list listing: each selected tool exactly as declared. */
export function toolListing<Ctx>(profile: Profile<Ctx>): object[] {
  return profile.tools.map((tool) => ({
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    ...(tool._meta ? { _meta: tool._meta } : {}),
  }));
}

/** What a profile serves besides tools, and so which capabilities it advertises. */
export interface Surface {
  readonly resources: readonly ResourceDeclaration[];
  readonly templates: readonly ResourceTemplateDeclaration[];
  readonly prompts: readonly PromptDeclaration[];
  /** Present when any prompt argument or template variable has a completer. */
  readonly completable?: Completable;
}

export function extraSurface<Ctx>(profile: Profile<Ctx>): Surface {
  const resources = profile.resources ?? [];
  const templates = profile.resourceTemplates ?? [];
  const prompts = profile.prompts ?? [];
  const completable: Completable = {
    promptArgument: (prompt, argument) => prompts.find((p) => p.name === prompt)?.arguments?.find((a) => a.name === argument)?.complete,
    templateVariable: (uriTemplate, variable) => templates.find((t) => t.uriTemplate === uriTemplate)?.complete?.[variable],
  };
  const anyCompleter = prompts.some((p) => p.arguments?.some((a) => a.complete)) || templates.some((t) => Object.keys(t.complete ?? {}).length > 0);
  return { resources, templates, prompts, ...(anyCompleter ? { completable } : {}) };
}

/** The capabilities the server advertises: tools always; resources, prompts and completions only when served. */
export function serverCapabilities<Ctx>(profile: Profile<Ctx>, surface: Surface) {
  const { resources, templates, prompts, completable } = surface;
  const extra = profile.capabilities ?? {};
  return {
    tools: { listChanged: extra.toolsListChanged ?? false },
    ...(resources.length > 0 || templates.length > 0 ? { resources: { listChanged: false, subscribe: false } } : {}),
    ...(prompts.length > 0 ? { prompts: { listChanged: false } } : {}),
    ...(completable ? { completions: {} } : {}),
    ...(extra.logging ? { logging: {} } : {}),
  };
}

/**
 * What the first answers need of a profile, as plain data: made from the profile, or read from the
 * copy the build stored (profiles/stored-surface.ts), so they can be written before it is loaded.
 */
export interface FirstSurface {
  /** The tools/list listing, as JSON text: the largest answer, written as it was made or stored. */
  readonly toolsJson: string;
  readonly capabilities: object;
  readonly serverInfo: Profile<unknown>['serverInfo'];
  readonly instructions?: string;
  readonly rules?: JsonRpcRules;
}

export function firstSurface<Ctx>(profile: Profile<Ctx>): FirstSurface {
  return {
    toolsJson: JSON.stringify(toolListing(profile)),
    capabilities: serverCapabilities(profile, extraSurface(profile)),
    serverInfo: profile.serverInfo,
    ...(profile.instructions ? { instructions: profile.instructions } : {}),
    ...(profile.jsonRpcRules ? { rules: profile.jsonRpcRules } : {}),
  };
}

/** The `initialize` result the SDK server gives for `requested`, one of LEGACY_PROTOCOL_VERSIONS. */
export function initializeResult(surface: FirstSurface, requested: string): object {
  return {
    protocolVersion: requested,
    capabilities: surface.capabilities,
    serverInfo: surface.serverInfo,
    ...(surface.instructions ? { instructions: surface.instructions } : {}),
  };
}
