import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { collectionNames, isCollectionName } from '@platform/schema/sync/collections';
import { mostPushBodyBytes } from '@platform/schema/sync/push-limits';
import { pullQuerySchema, pushBodySchema } from '@platform/schema/sync/sync.zod';
import { NotFound, TooManyRequests } from '../plugins/domain-errors.ts';
import { replicatingActor, type Actor } from './actor.ts';
import { ChangeHub } from './change-feed.ts';
import { collectionDefinitions } from './collections/definitions.ts';
import { pullChanges } from './pull.ts';
import { pushChanges, PushRefused } from './push.ts';
import { reportUnreadableTo } from './read-document.ts';
import { StreamSlots } from './stream-slots.ts';
import { MAX_STREAMS_PER_HOLDER, OpenStreams, openStream } from './stream.ts';

declare module 'fastify' {
  interface FastifyInstance {
    changeHub: ChangeHub;
  }
}

const collectionParams = z.object({ collection: z.string() });

function definitionOf(params: unknown) {
  const { collection } = collectionParams.parse(params);
  if (!isCollectionName(collection))
    throw new NotFound(`There is no collection named ${collection}.`);
  return collectionDefinitions[collection];
}

/**
 * The push route's body limit: the largest batch the app can make of any collection (decision
 * 0047), so a batch is never refused for its size and retried for ever.
 */
export const PUSH_BODY_LIMIT = Math.max(...collectionNames.map(mostPushBodyBytes));

/** The replication endpoints (issue 4 wire contract). */
export const syncRoutes = fp(
  async (app: FastifyInstance) => {
    const hub = new ChangeHub(app.database);
    app.decorate('changeHub', hub);
    app.addHook('onReady', () => hub.start());
    app.addHook('onClose', () => hub.close());
    const streams = new OpenStreams();
    // Before the server waits for its connections: streams never end by themselves.
    app.addHook('preClose', async () => streams.endAll());

    app.get('/api/sync/:collection/pull', async (request) => {
      const collection = definitionOf(request.params);
      const { actor } = await replicatingActor(app, request);
      const query = pullQuerySchema.parse(request.query);
      const scope = collection.scopeFor(actor);
      const checkpoint =
        query.id !== undefined && query.lsn !== undefined ? { id: query.id, lsn: query.lsn } : null;
      return pullChanges(
        app.db,
        collection,
        scope,
        checkpoint,
        query.batchSize,
        reportUnreadableTo(app, request),
      );
    });

    // Who pushes is settled before the body is read: only a replicating device gets the
    // large body limit, anybody else is answered before sending megabytes.
    const pushers = new WeakMap<FastifyRequest, Actor>();
    const identifyPusher = async (request: FastifyRequest) => {
      definitionOf(request.params);
      pushers.set(request, (await replicatingActor(app, request)).actor);
    };
    app.post(
      '/api/sync/:collection/push',
      { bodyLimit: PUSH_BODY_LIMIT, onRequest: identifyPusher },
      async (request, reply) => {
        const collection = definitionOf(request.params);
        const actor = pushers.get(request);
        if (!actor) throw new Error('push: the pusher was not identified before the body');
        const rows = pushBodySchema.parse(request.body);
        const scope = collection.scopeFor(actor);
        try {
          return await pushChanges(
            app.db,
            collection,
            actor,
            scope,
            rows,
            reportUnreadableTo(app, request),
          );
        } catch (error) {
          if (error instanceof PushRefused) return reply.code(422).send({ errors: error.errors });
          throw error;
        }
      },
    );

    const streamSlots = new StreamSlots(MAX_STREAMS_PER_HOLDER);
    app.get('/api/sync/stream', async (request, reply) => {
      const { actor, holder, currentActor } = await replicatingActor(app, request);
      const release = streamSlots.take(holder);
      if (!release) throw new TooManyRequests('Too many live streams are open for this session.');
      try {
        openStream(reply, hub, actor, { currentActor, onClose: release, streams });
      } catch (error) {
        release();
        throw error;
      }
    });
  },
  { name: 'sync', dependencies: ['db', 'session', 'metrics'] },
);
