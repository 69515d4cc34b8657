/**
 * Prompts: named, argument-taking message templates a client lists and renders (`prompts/list`,
 * `prompts/get`). Required arguments are checked here, so a renderer sees them all.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

export interface PromptArgumentDeclaration {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

export interface PromptDeclaration {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgumentDeclaration[];
  readonly _meta?: Record<string, unknown>;
  /** The user message the prompt renders, from its (string) arguments. */
  render(args: Readonly<Record<string, string>>): string;
}

export class Prompts {
  readonly #prompts: ReadonlyMap<string, PromptDeclaration>;

  constructor(declarations: readonly PromptDeclaration[]) {
    this.#prompts = new Map(declarations.map((prompt) => [prompt.name, prompt]));
  }

  get size(): number {
    return this.#prompts.size;
  }

  list() {
    return [...this.#prompts.values()].map(({ name, title, description, arguments: args, _meta }) => ({
      name,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      arguments: args.map((arg) => ({ name: arg.name, ...(arg.description ? { description: arg.description } : {}), required: arg.required })),
      ...(_meta ? { _meta } : {}),
    }));
  }

  get(name: string, args: Readonly<Record<string, string>> = {}) {
    const prompt = this.#prompts.get(name);
    if (!prompt) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown prompt "${name}"; prompts/list names the ones this server has: ${[...this.#prompts.keys()].join(', ')}`);
    }
    const missing = prompt.arguments.filter((arg) => arg.required && (args[arg.name] === undefined || args[arg.name] === ''));
    if (missing.length) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `prompt "${name}" needs the argument(s): ${missing.map((arg) => arg.name).join(', ')}`);
    }
    const unknown = Object.keys(args).filter((key) => !prompt.arguments.some((arg) => arg.name === key));
    if (unknown.length) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `prompt "${name}" takes no argument(s) ${unknown.join(', ')}; it takes: ${prompt.arguments.map((arg) => arg.name).join(', ')}`);
    }
    return {
      ...(prompt.description ? { description: prompt.description } : {}),
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.render(args) } }],
    };
  }
}
