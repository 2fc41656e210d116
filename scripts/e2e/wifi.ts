import net from 'node:net';

/**
 * A device's Wi-Fi: a TCP link between the browser and the server that can be unplugged.
 * `context.setOffline` alone is not a network outage: it is DevTools emulation, and during
 * `page.reload()` Chromium lifts it for the outgoing document (a new RenderFrameHost takes
 * over the emulation) — that document hears `online`, its handlers push the unsent move, and
 * the request really reaches the server. A device with no network cannot do that, so the test
 * cuts the link too: while unplugged, open connections are dropped and new ones closed.
 */
export async function openWifi(serverUrl: string) {
  const target = new URL(serverUrl);
  const sockets = new Set<net.Socket>();
  let plugged = true;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const link = net.createServer((device) => {
    track(device);
    if (!plugged) {
      device.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    track(upstream);
    device.pipe(upstream);
    upstream.pipe(device);
    device.on('close', () => upstream.destroy());
    upstream.on('close', () => device.destroy());
  });
  await new Promise<void>((resolve) => link.listen(0, target.hostname, resolve));
  const { port } = link.address() as net.AddressInfo;
  return {
    url: `${target.protocol}//${target.hostname}:${port}`,
    unplug: () => {
      plugged = false;
      for (const socket of sockets) socket.destroy();
    },
    plugIn: () => {
      plugged = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        link.close(() => resolve());
      }),
  };
}

export type Wifi = Awaited<ReturnType<typeof openWifi>>;
