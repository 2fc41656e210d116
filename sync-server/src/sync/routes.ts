import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { collectionNames, isCollectionName } from '@platform/schema/sync/collections';
import { mostPushBodyBytes } from '@platform/schema/sync/push-limits';
import { writableBySomeone } from '@platform/schema/sync/access.rules';
import { pullQuerySchema, pushBodySchema } from '@platform/schema/sync/sync.zod';
import { NotFound, TooManyRequests } from '../plugins/domain-errors.ts';
import { replicatingActor, type Actor } from './actor.ts';
import { ChangeHub } from './change-feed.ts';
import { collectionDefinitions } from './collections/definitions.ts';
import { pullChanges } from './pull.ts';
import { pushChanges } from './push.ts';
import { reportUnreadableTo } from './read-document.ts';
import { StreamSlots } from './stream-slots.ts';
import { MAX_STREAMS_PER_HOLDER, OpenStreams, openStream } from './stream.ts';

declare module 'fastify' {
  interface FastifyInstance {
    changeHub: ChangeHub;
  }
}

const collectionParams = z.object({ collection: z.enum(collectionNames) });

/** An unknown collection answers 404, before who is asking and before any input is read. */
function assertCollection(params: unknown) {
  const { collection } = params as { collection: string };
  if (!isCollectionName(collection))
    throw new NotFound(`There is no collection named ${collection}.`);
}

/**
 * The push route's body limit: the largest batch the app can make of any collection (decision
 * 0047), so a batch is never refused for its size and retried for ever.
 */
export const PUSH_BODY_LIMIT = Math.max(
  ...collectionNames.filter(writableBySomeone).map(mostPushBodyBytes),
);

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

    // Who replicates is settled first (onRequest): an unknown collection is 404, a caller
    // without a session or kiosk 401, whatever the input; then the schemas are checked. Only a
    // replicating device gets the push route's large body limit: anybody else is answered
    // before sending megabytes.
    const replicators = new WeakMap<FastifyRequest, Actor>();
    const identifyReplicator = async (request: FastifyRequest) => {
      assertCollection(request.params);
      replicators.set(request, (await replicatingActor(app, request)).actor);
    };
    const replicatorOf = (request: FastifyRequest) => {
      const actor = replicators.get(request);
      if (!actor) throw new Error('sync: the replicator was not identified before the input');
      return actor;
    };
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/api/sync/:collection/pull',
      {
        schema: { params: collectionParams, querystring: pullQuerySchema },
        onRequest: identifyReplicator,
      },
      async (request) => {
        const collection = collectionDefinitions[request.params.collection];
        const actor = replicatorOf(request);
        const query = request.query;
        const scope = collection.scopeFor(actor);
        const checkpoint =
          query.id !== undefined && query.lsn !== undefined
            ? { id: query.id, lsn: query.lsn }
            : null;
        return pullChanges(
          app.db,
          collection,
          scope,
          checkpoint,
          query.batchSize,
          reportUnreadableTo(app, request),
        );
      },
    );

    // A refused push (PushRefused) answers 422 `{ errors }` through the error map.
    api.post(
      '/api/sync/:collection/push',
      {
        bodyLimit: PUSH_BODY_LIMIT,
        schema: { params: collectionParams, body: pushBodySchema },
        onRequest: identifyReplicator,
      },
      async (request) => {
        const collection = collectionDefinitions[request.params.collection];
        const actor = replicatorOf(request);
        return pushChanges(
          app.db,
          collection,
          actor,
          collection.scopeFor(actor),
          request.body,
          reportUnreadableTo(app, request),
          new Date(),
          app.jobs,
        );
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
