/** What a profile shows before any call: its tools/list listing and the capabilities it advertises. */
import type { Completable } from './completions.js';
import type { PromptDeclaration } from './prompts.js';
import type { ResourceDeclaration, ResourceTemplateDeclaration } from './resources.js';
import type { Profile } from '../profile.js';

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
  const anyCompleter =
    prompts.some((p) => p.arguments?.some((a) => a.complete)) || templates.some((t) => Object.keys(t.complete ?? {}).length > 0);
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
