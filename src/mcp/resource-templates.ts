/**
 * Resource templates (RFC 6570 level-1 path variables plus one `{?a,b}` query part, the subset
 * the contracts use): listing them, and reading a URI by finding the template it matches and
 * handing its variables, decoded, to that template's reader.
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { Failure } from '../core/failure.js';

export interface ResourceTemplateDeclaration {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType: string;
  readonly _meta?: Record<string, unknown>;
  /** The resource text for `variables` (path variables always present; query ones when given). */
  read(variables: Readonly<Record<string, string>>): Promise<string>;
}

interface Compiled {
  readonly declaration: ResourceTemplateDeclaration;
  readonly path: RegExp;
  readonly pathNames: readonly string[];
  readonly queryNames: readonly string[];
}

const VARIABLE = /\{([A-Za-z0-9_]+)\}/g;

function compile(declaration: ResourceTemplateDeclaration): Compiled {
  const query = /\{\?([A-Za-z0-9_,]+)\}$/.exec(declaration.uriTemplate);
  const pathPart = query ? declaration.uriTemplate.slice(0, query.index) : declaration.uriTemplate;
  const pathNames: string[] = [];
  let source = '';
  let last = 0;
  for (const match of pathPart.matchAll(VARIABLE)) {
    source += escape(pathPart.slice(last, match.index)) + '([^/?#]+)';
    pathNames.push(match[1]!);
    last = match.index! + match[0].length;
  }
  source += escape(pathPart.slice(last));
  return { declaration, path: new RegExp(`^${source}$`), pathNames, queryNames: query ? query[1]!.split(',') : [] };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The variables of `uri` under `template`, or undefined when it does not match. */
function match(template: Compiled, uri: string): Record<string, string> | undefined {
  const hash = uri.indexOf('#');
  const bare = hash === -1 ? uri : uri.slice(0, hash);
  const q = bare.indexOf('?');
  const path = q === -1 ? bare : bare.slice(0, q);
  const found = template.path.exec(path);
  if (!found) return undefined;
  const variables: Record<string, string> = {};
  try {
    template.pathNames.forEach((name, i) => (variables[name] = decodeURIComponent(found[i + 1]!)));
  } catch {
    return undefined; // malformed percent-encoding
  }
  if (q !== -1) {
    const params = new URLSearchParams(bare.slice(q + 1));
    for (const name of template.queryNames) {
      const value = params.get(name);
      if (value !== null) variables[name] = value;
    }
  }
  return variables;
}

export class ResourceTemplates {
  readonly #compiled: readonly Compiled[];

  constructor(declarations: readonly ResourceTemplateDeclaration[]) {
    this.#compiled = declarations.map(compile);
  }

  get size(): number {
    return this.#compiled.length;
  }

  list() {
    return this.#compiled.map(({ declaration: { uriTemplate, name, title, description, mimeType, _meta } }) => ({
      uriTemplate,
      name,
      mimeType,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(_meta ? { _meta } : {}),
    }));
  }

  /** Reads `uri` through the first template it matches; undefined when none does. */
  async read(uri: string): Promise<{ contents: Array<{ uri: string; mimeType: string; text: string }> } | undefined> {
    for (const template of this.#compiled) {
      const variables = match(template, uri);
      if (!variables) continue;
      let text: string;
      try {
        text = await template.declaration.read(variables);
      } catch (error) {
        // A missing object is the protocol's "resource not found"; bad variables are bad params.
        if (!(error instanceof Failure)) throw error;
        const message = error.hint ? `${error.message}. ${error.hint}` : error.message;
        if (error.kind === 'not_found') throw new ResourceNotFoundError(uri, message);
        if (error.kind === 'invalid_argument') throw new ProtocolError(ProtocolErrorCode.InvalidParams, message);
        throw error;
      }
      return { contents: [{ uri, mimeType: template.declaration.mimeType, text }] };
    }
    return undefined;
  }
}
