import type { Feature } from '../../feature.ts';
import { Turns } from '../../turns.ts';
import { deleteConfiguration } from './bot-configurations.store.ts';
import { acknowledgeConfig, botConnected, botDisconnected } from './config-delivery.service.ts';
import { configurationRoutes } from './configuration.routes.ts';
import { resendNetworkState } from './emergency.service.ts';
import { readFleetCondition } from './fleet-condition.service.ts';
import { handOverFrames } from './http-bot-frames.service.ts';

/**
 * Bot configurations, profiles and emergency control. A bot's configuration rides on the fleet's
 * ways to it (a feature below this one): its socket, its POST /api/bot/events answers, its removal.
 */
export const configurationFeature = {
  name: 'configuration',
  services: (ctx) => ({
    configurationProgress: new Turns(),
    botSocketHooks: {
      helloAnswered: (ghostId, socket) => botConnected(ctx, ghostId, socket),
      configAcknowledged: (ghostId, ack) => acknowledgeConfig(ctx, ghostId, ack),
      socketClosed: (ghostId, socketId) => botDisconnected(ctx, ghostId, socketId),
    },
    // A bot without a socket is handed its frames in its POST /api/bot/events answer.
    httpBotFrames: {
      configAcknowledged: (ghostId, ack) => acknowledgeConfig(ctx, ghostId, ack),
      handOver: (ghostId) => handOverFrames(ctx, ghostId),
    },
    deleteBotConfiguration: deleteConfiguration,
    fleetCondition: () => readFleetCondition(ctx),
  }),
  jobs: (app, ctx) => {
    // A stop or resume made elsewhere during a Redis outage reaches this instance's bots when it ends.
    const stop = ctx.bus.onResync(() => {
      resendNetworkState(ctx).catch((err: unknown) =>
        app.log.warn({ err }, 'could not tell the bots the network state after a Redis outage'),
      );
    });
    app.addHook('onClose', async () => stop());
  },
  routes: [configurationRoutes],
} satisfies Feature;
