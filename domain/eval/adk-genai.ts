import { z } from 'zod';
import { pyBool, pyDict, pydanticModel } from './adk-pydantic';

// google-genai's models refuse unknown keys (`extra="forbid"`) and default every field to None.
const model = <S extends z.ZodRawShape>(shape: S) => pydanticModel(shape);
const nested = pyDict.nullish();

/** genai `FunctionCall`: every field may be null (a placeholder call has no name). */
export const functionCall = model({
  id: z.string().nullish(),
  args: pyDict.nullish(),
  name: z.string().nullish(),
  partial_args: z.array(pyDict).nullish(),
  will_continue: pyBool.nullish(),
});

/** genai `FunctionResponse`. */
export const functionResponse = model({
  will_continue: pyBool.nullish(),
  scheduling: z.string().nullish(),
  parts: z.array(pyDict).nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  response: pyDict.nullish(),
});

/** genai `Part`: the fields Assay reads are typed, the other kinds of part are objects it does not read. */
export const part = model({
  media_resolution: nested,
  code_execution_result: nested,
  executable_code: nested,
  file_data: nested,
  function_call: functionCall.nullish(),
  function_response: functionResponse.nullish(),
  inline_data: nested,
  text: z.string().nullish(),
  thought: pyBool.nullish(),
  thought_signature: z.string().nullish(),
  video_metadata: nested,
  tool_call: nested,
  tool_response: nested,
  part_metadata: nested,
  audio_transcription: nested,
  media_processing: nested,
  speech_metadata: nested,
});

/** genai `Content`: a role and parts, both optional. */
export const content = model({ parts: z.array(part).nullish(), role: z.string().nullish() });

export type AdkContent = z.infer<typeof content>;
export type AdkFunctionCall = z.infer<typeof functionCall>;
export type AdkFunctionResponse = z.infer<typeof functionResponse>;
