/**
 * resources/list, resources/templates/list and resources/read for a profile's fixed resources and
 * resource templates (whose variables may carry completers).
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, UriTemplate, type Server } from '@modelcontextprotocol/server';
import { Failure } from '../../core/index.js';
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
  readonly _meta?: Record<string, unknown>;
  /** Suggestions per variable (completion/complete with a ref/resource). */
  readonly complete?: Readonly<Record<string, Completer>>;
  /**
   * Variables whose values have a known shape (a pane id like %12): such a value is percent-decoded
   * when that gives the shape (%2512 is %12) and taken as written otherwise, since a raw pane id
   * reads as an escape (%12 would decode to the control character U+0012).
   */
  readonly shapes?: Readonly<Record<string, RegExp>>;
  /**
   * Reads the resource the variables name. A `not_found` Failure answers "resource not found"
   * (-32002 in 2025-11-25, -32602 with `data: {uri}` in 2026-07-28: resource-not-found.ts); an
   * `invalid_argument` one (a malformed id or socket name in the URI) answers -32602 Invalid Params.
   */
  read(variables: Readonly<Record<string, string>>): Promise<string>;
}

export function serveResources(
  server: Server,
  resources: readonly ResourceDeclaration[],
  templates: readonly ResourceTemplateDeclaration[],
): void {
  const matchers = templates.map((template) => ({ template, match: templateMatcher(template.uriTemplate, template.shapes ?? {}) }));
  server.setRequestHandler('resources/list', async () => ({
    resources: resources.map(({ uri, name, title, description, mimeType }) => ({
      uri,
      name,
      mimeType,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
    })),
  }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: templates.map(({ uriTemplate, name, title, description, mimeType, _meta }) => ({
      uriTemplate,
      name,
      mimeType,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(_meta ? { _meta } : {}),
    })),
  }));
  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    const fixed = resources.find((resource) => resource.uri === uri);
    if (fixed) return { contents: [{ uri, mimeType: fixed.mimeType, text: await fixed.read() }] };
    for (const { template, match } of matchers) {
      const flat = match(uri);
      if (!flat) continue;
      try {
        return { contents: [{ uri, mimeType: template.mimeType, text: await template.read(flat) }] };
      } catch (error) {
        if (!(error instanceof Failure)) throw error;
        const message = `${error.message}${error.hint ? `. ${error.hint}` : ''}`;
        if (error.kind === 'not_found') throw new ResourceNotFoundError(uri, message);
        // No `data: {uri}`: that would mark it as not found.
        if (error.kind === 'invalid_argument') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri}: ${message}`);
        throw error;
      }
    }
    throw new ResourceNotFoundError(
      uri,
      `no resource at ${uri}; resources/list and resources/templates/list name the ones this server has`,
    );
  });
}

/**
 * Matches URIs against one template. The SDK's UriTemplate wants a `{?a,b}` query present and does
 * not percent-decode, so the path part goes through it, the query is optional and read by name,
 * and each value is decoded (a raw `%3`, which is not an escape, stays as it is).
 */
function templateMatcher(
  uriTemplate: string,
  shapes: Readonly<Record<string, RegExp>>,
): (uri: string) => Record<string, string> | undefined {
  const query = /\{\?([^}]+)\}$/.exec(uriTemplate);
  const path = new UriTemplate(query ? uriTemplate.slice(0, query.index) : uriTemplate);
  const names = query ? query[1]!.split(',').map((name) => name.trim()) : [];
  return (uri) => {
    const bare = uri.split('#', 1)[0]!;
    const q = bare.indexOf('?');
    if (q !== -1 && names.length === 0) return undefined;
    const found = path.match(q === -1 ? bare : bare.slice(0, q));
    if (!found) return undefined;
    const variables: Record<string, string> = {};
    for (const [key, value] of Object.entries(found)) variables[key] = decoded(Array.isArray(value) ? value.join(',') : value, shapes[key]);
    if (q !== -1) {
      const params = new URLSearchParams(bare.slice(q + 1));
      for (const name of names) {
        const value = params.get(name);
        if (value !== null) variables[name] = value;
      }
    }
    return variables;
  };
}

/** `value` percent-decoded; with a `shape`, as written when only that has the shape. */
function decoded(value: string, shape?: RegExp): string {
  let text: string;
  try {
    text = decodeURIComponent(value);
  } catch {
    return value;
  }
  return shape && !shape.test(text) && shape.test(value) ? value : text;
}
