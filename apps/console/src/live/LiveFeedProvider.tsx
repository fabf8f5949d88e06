import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DeviceRegistryMessage } from '@corridor/contracts/devices';
import type { Position } from '@corridor/contracts/positions';
import { FrameBatcher } from './frame-batcher';
import { applyLive } from './queries';
import { applyAlerts } from './alerts/alerts';
import { applyCommandEvents, useCommandsFromServer } from './commands';
import { liveSocketUrl, openLiveSocket, type SocketState } from './socket';

const LiveState = createContext<SocketState>('connecting');
export const useLiveState = () => useContext(LiveState);

/**
 * Opens the live feed for the signed-in user and writes its frames into the query cache:
 * positions and device changes batched per animation frame, events at once.
 */
export function LiveFeedProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [state, setState] = useState<SocketState>('connecting');
  useCommandsFromServer();
  useEffect(() => {
    const positions = new FrameBatcher<Position>((items) => applyLive(client, { positions: items }));
    const devices = new FrameBatcher<DeviceRegistryMessage>((items) => applyLive(client, { devices: items }));
    const socket = openLiveSocket({
      url: liveSocketUrl(window.location),
      onState: setState,
      onMessage: (msg) => {
        for (const p of msg.positions ?? []) positions.add(p.deviceId, p);
        for (const d of msg.devices ?? []) devices.add(d.id, d);
        if (msg.allEvents?.length) {
          applyLive(client, { events: msg.allEvents });
          applyCommandEvents(client, msg.allEvents);
        }
        // what the user's notification rules send to the web channel: alerts
        if (msg.events?.length) applyAlerts(client, msg.events);
      },
    });
    return () => socket.close();
  }, [client]);
  return <LiveState.Provider value={state}>{children}</LiveState.Provider>;
}
