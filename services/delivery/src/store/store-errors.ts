import { AppError } from '@formcast/platform';

export function destinationNotFound(destinationId: number): AppError {
  return new AppError('not_found', `Destination ${destinationId} does not exist`);
}

export function deliveryNotFound(deliveryId: number): AppError {
  return new AppError('not_found', `Delivery ${deliveryId} does not exist`);
}
