/**
 * Bad tool arguments are a protocol error. The SDK's `McpServer` answers a `tools/call` whose
 * arguments fail the tool's input schema with an `isError` result (the 2025-11-25 idiom that lets
 * a model correct itself), but tubescribe's contract answers them, like an unknown tool, with a
 * JSON-RPC error `-32602 Invalid params`: a caller can tell "you called it wrong" from "the call
 * failed" without reading text. So the endpoint checks a call's arguments against the same
 * valibot schema the tool is registered with before the SDK sees the request.
 * @module
 */
import * as v from 'valibot';
import { DATA_TOOL_ARGS } from './data-tools.ts';
import { TRANSCRIPT_TOOL_ARGS } from './transcript-tool.ts';

const TOOL_ARGS: ReadonlyMap<string, v.GenericSchema> = new Map([
  ['get_transcript', TRANSCRIPT_TOOL_ARGS],
  ...DATA_TOOL_ARGS,
]);

/** The JSON-RPC error answering a call with invalid arguments. */
export interface InvalidParams {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: -32602; message: string; data: { issues: { path: string; message: string }[] } };
}

/** Where an issue is, as `a.b.0` (empty for the arguments object itself). */
function pathOf(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((item) => String(item.key)).join('.');
}

/** The tool a single `tools/call` message names, if the body is one. */
export function calledTool(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; params?: { name?: unknown } };
  const name = message.params?.name;
  return message.method === 'tools/call' && typeof name === 'string' ? name : undefined;
}

/**
 * The JSON-RPC error for a single `tools/call` message whose arguments do not fit its tool's
 * schema, or `undefined` when they fit (or the message is anything else: the SDK answers it).
 */
export function invalidToolArguments(body: unknown): InvalidParams | undefined {
  const tool = calledTool(body);
  if (tool === undefined) return undefined;
  const message = body as { id?: unknown; params: { arguments?: unknown } };
  const schema = TOOL_ARGS.get(tool);
  if (schema === undefined) return undefined;
  const checked = v.safeParse(schema, message.params.arguments ?? {});
  if (checked.success) return undefined;
  const issues = checked.issues.map((issue) => ({ path: pathOf(issue), message: issue.message }));
  const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: -32602,
      message: `Invalid arguments for tool ${tool}: ${summary}`,
      data: { issues },
    },
  };
}
