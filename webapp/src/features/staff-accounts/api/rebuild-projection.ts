import { api } from '@/lib/api-client';

/** The read models the projector builds (projections/read_models.go). */
export const PROJECTIONS = ['profiles', 'usage_statistics', 'transactions'] as const;
export type ProjectionName = (typeof PROJECTIONS)[number];

export type RebuildResponse = { message: string; projection: string; ms: number };

/** Rebuilds one read table from every event; answers when it is done. */
export const rebuildProjection = (name: ProjectionName) =>
  api.post<RebuildResponse>(`/api/staff/projections/${name}/rebuild`);
