/**
 * Matching URIs against resource templates: RFC 6570 level-1 path variables plus one `{?a,b}`
 * query part, the subset the contracts use. Query variables are optional (absent from the URI,
 * absent from the result); values are percent-decoded. (The SDK's UriTemplate.match requires the
 * query part to be present.)
 */
export interface CompiledUriTemplate {
  readonly path: RegExp;
  readonly pathNames: readonly string[];
  readonly queryNames: readonly string[];
}

const VARIABLE = /\{([A-Za-z0-9_]+)\}/g;

export function compileUriTemplate(uriTemplate: string): CompiledUriTemplate {
  const query = /\{\?([A-Za-z0-9_,]+)\}$/.exec(uriTemplate);
  const pathPart = query ? uriTemplate.slice(0, query.index) : uriTemplate;
  const pathNames: string[] = [];
  let source = '';
  let last = 0;
  for (const match of pathPart.matchAll(VARIABLE)) {
    source += escape(pathPart.slice(last, match.index)) + '([^/?#]+)';
    pathNames.push(match[1]!);
    last = match.index! + match[0].length;
  }
  source += escape(pathPart.slice(last));
  return { path: new RegExp(`^${source}$`), pathNames, queryNames: query ? query[1]!.split(',') : [] };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The variables of `uri` under `template`, or undefined when it does not match. */
export function matchUriTemplate(template: CompiledUriTemplate, uri: string): Record<string, string> | undefined {
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
