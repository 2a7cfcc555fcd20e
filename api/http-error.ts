// The HTTP error type lives in lib/ so the gateway answers in the same shape; the api's modules import it from here.
export { HTTP_ERROR_CODES, HttpError, changeInProgress, notFound, type HttpErrorCode } from '../lib/http-error';
