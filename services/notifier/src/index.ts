export * from './store';
export * from './sender';
export * from './domain/device-notification';
export * from './domain/fcm-message';
export * from './domain/oneshot-transition';
export * from './domain/send-outcome';
export {
  registerNotifierService,
  notifierServiceName,
  notifierPrefetch,
  startNotifier,
  startNotifierService,
  type NotifierOptions,
} from './service';
export type { NotifierDeps } from './handlers/deps';
