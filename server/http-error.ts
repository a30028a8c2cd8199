/*
 * The errors services throw for the caller to see. They live beside the app, not in plugins/, so
 * features depend on them without depending on the error-handling plugin that sends them.
 */

/** An error with an HTTP status and a message meant for the caller. Services throw it; the handler sends it. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
