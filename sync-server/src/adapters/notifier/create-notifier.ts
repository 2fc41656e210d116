import type { Db } from '../../db/open-database.ts';
import { createFirebaseNotifier } from './firebase.ts';
import { OutboxNotifier } from './outbox.ts';
import type { Notifier } from './port.ts';
import type { PushConfig } from './push-config.ts';
import { WebPushNotifier } from './web-push.ts';

/** The adapter the configuration names (push-config.ts decides which). */
export async function createNotifier(db: Db, push: PushConfig): Promise<Notifier> {
  switch (push.adapter) {
    case 'firebase':
      return createFirebaseNotifier(db, push.serviceAccount, push.web);
    case 'web-push':
      return new WebPushNotifier(db, push.vapid);
    case 'outbox':
      return new OutboxNotifier(db);
  }
}
