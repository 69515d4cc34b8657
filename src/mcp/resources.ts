/**
 * resources/list, resources/templates/list and resources/read for a profile's fixed resources and
 * resource templates (whose variables may carry completers).
 */
import { ResourceNotFoundError, UriTemplate, type Server } from '@modelcontextprotocol/server';
import { Failure } from '../core/failure.js';
import type { Completer } from './completions.js';

export interface ResourceDeclaration {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType: string;
  read(): Promise<string>;
}

export interface ResourceTemplateDeclaration {
  /** An RFC 6570 template, e.g. `tmux://panes/{paneId}`. */
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType: string;
  /** Suggestions per variable (completion/complete with a ref/resource). */
  readonly complete?: Readonly<Record<string, Completer>>;
  /** Reads the resource the variables name; a `not_found` Failure answers "resource not found". */
  read(variables: Readonly<Record<string, string>>): Promise<string>;
}

export function serveResources(server: Server, resources: readonly ResourceDeclaration[], templates: readonly ResourceTemplateDeclaration[]): void {
  const matchers = templates.map((template) => ({ template, matcher: new UriTemplate(template.uriTemplate) }));
  server.setRequestHandler('resources/list', async () => ({
    resources: resources.map(({ uri, name, title, description, mimeType }) => ({ uri, name, mimeType, ...(title ? { title } : {}), ...(description ? { description } : {}) })),
  }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: templates.map(({ uriTemplate, name, title, description, mimeType }) => ({
      uriTemplate,
      name,
      mimeType,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
    })),
  }));
  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    const fixed = resources.find((resource) => resource.uri === uri);
    if (fixed) return { contents: [{ uri, mimeType: fixed.mimeType, text: await fixed.read() }] };
    for (const { template, matcher } of matchers) {
      const variables = matcher.match(uri);
      if (!variables) continue;
      const flat = Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : value]));
      try {
        return { contents: [{ uri, mimeType: template.mimeType, text: await template.read(flat) }] };
      } catch (error) {
        if (error instanceof Failure && error.kind === 'not_found') throw new ResourceNotFoundError(uri, `${error.message}${error.hint ? `. ${error.hint}` : ''}`);
        throw error;
      }
    }
    throw new ResourceNotFoundError(uri, `no resource at ${uri}; resources/list and resources/templates/list name the ones this server has`);
  });
}
