import type { Settings } from '@formcast/platform';
import type { CreateBusOptions } from './create-bus';

/** The bus's fair-service settings (BUS_COMMANDS_PER_ORGANIZATION, BUS_EVENTS_PER_ORGANIZATION, BUS_COMMAND_PREFETCH, BUS_EVENT_LOOK_AHEAD). */
export function fairServiceOptions(
  settings: Pick<Settings, 'BUS_COMMANDS_PER_ORGANIZATION' | 'BUS_EVENTS_PER_ORGANIZATION' | 'BUS_COMMAND_PREFETCH' | 'BUS_EVENT_LOOK_AHEAD'>,
): Pick<CreateBusOptions, 'commandsPerOrganization' | 'eventsPerOrganization' | 'commandPrefetch' | 'eventLookAhead'> {
  return {
    commandsPerOrganization: settings.BUS_COMMANDS_PER_ORGANIZATION,
    eventsPerOrganization: settings.BUS_EVENTS_PER_ORGANIZATION,
    commandPrefetch: settings.BUS_COMMAND_PREFETCH,
    eventLookAhead: settings.BUS_EVENT_LOOK_AHEAD,
  };
}
