/** prompts/list and prompts/get for a profile's prompts, checked before they render. */
import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type Server } from '@modelcontextprotocol/server';
import type { Completer } from './completions.js';

interface PromptArgumentDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
  /** Suggestions for this argument (completion/complete). */
  readonly complete?: Completer;
}

export interface PromptDeclaration {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly PromptArgumentDeclaration[];
  readonly _meta?: Record<string, unknown>;
  /** The prompt's messages; a plain string is one user message. */
  render(args: Readonly<Record<string, string>>): Promise<GetPromptResult | string> | GetPromptResult | string;
}

export function servePrompts(server: Server, prompts: readonly PromptDeclaration[]): void {
  server.setRequestHandler('prompts/list', async () => ({
    prompts: prompts.map(({ name, title, description, arguments: args = [], _meta }) => ({
      name,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      arguments: args.map(({ name, description, required }) => ({
        name,
        ...(description ? { description } : {}),
        required: required ?? false,
      })),
      ...(_meta ? { _meta } : {}),
    })),
  }));
  server.setRequestHandler('prompts/get', async (request) => {
    const { name, arguments: given = {} } = request.params;
    const prompt = prompts.find((each) => each.name === name);
    if (!prompt)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown prompt "${name}"; prompts/list names the ones this server has`);
    const declared = prompt.arguments ?? [];
    const unknown = Object.keys(given).filter((key) => !declared.some((arg) => arg.name === key));
    const missing = declared.filter((arg) => arg.required && !given[arg.name]).map((arg) => arg.name);
    if (unknown.length > 0 || missing.length > 0) {
      const problems = [
        ...(unknown.length ? [`unknown argument(s) ${unknown.join(', ')}`] : []),
        ...(missing.length ? [`missing required argument(s) ${missing.join(', ')}`] : []),
      ];
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${name}: ${problems.join('; ')}; it takes ${declared.map((arg) => arg.name).join(', ') || 'no arguments'}`,
      );
    }
    const rendered = await prompt.render(given);
    if (typeof rendered !== 'string') return rendered;
    return {
      ...(prompt.description ? { description: prompt.description } : {}),
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: rendered } }],
    };
  });
}
