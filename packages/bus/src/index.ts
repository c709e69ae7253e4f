export * from './port';
export { InProcessBus, type InProcessBusOptions } from './in-process-bus';
export { InProcessBroker } from './in-process/in-process-broker';
export { AmqpBus, type AmqpBusOptions } from './amqp-bus';
export { createBus, type CreateBusOptions } from './create-bus';
export { attemptsHeader, defaultTopologyPrefix, topologyFor, type Topology } from './amqp/topology';
export { withAttachment, ValueWithAttachment } from './reply-codec';
export { registerServiceHandlers, type CommandHandlers, type HandlerTable, type ServiceHandlers } from './service-handlers';
