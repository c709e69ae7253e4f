import type { SendCommand } from '../http/send-command';

export interface RouteDeps {
  send: SendCommand;
}
