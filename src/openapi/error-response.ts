import { ApiResponse } from '@nestjs/swagger';

/** A documented error answer: the JSON `{"message": …}` body every error of the service has. */
export function ApiErrorResponse(status: number, description: string, message: string) {
  return ApiResponse({
    status,
    description,
    content: {
      'application/json': {
        schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
        example: { message },
      },
    },
  });
}
