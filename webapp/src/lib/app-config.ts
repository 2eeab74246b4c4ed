import useSWR from 'swr';
import { api } from './api-client';

/** The installer that the server found in DOWNLOADS_DIR. */
export type InstallerInfo = {
  platform: 'windows';
  fileName: string;
  version: string;
  sizeBytes: number;
  sha256: string;
};

/** GET /api/config: everything the webapp shows that the server owns. */
export type AppConfig = {
  paymentProvider: 'simulated' | 'stripe';
  stripePublishableKey: string | null;
  environment: 'development' | 'production';
  productName: string;
  supportEmail: string;
  supportPhone: string | null;
  rateLimitPerMinute: number;
  /** The public address, no trailing slash: the desktop API is at `${apiBaseUrl}/v1`. */
  apiBaseUrl: string;
  planFeatures: string[];
  minCustomCredits: number;
  installer: InstallerInfo | null;
};

export const configKey = '/api/config';

export const getConfig = () => api.get<AppConfig>(configKey);

export function useAppConfig() {
  return useSWR<AppConfig>(configKey, getConfig);
}

/**
 * The spec's product name, shown only until /api/config answers with the
 * operator's PRODUCT_NAME (whose default it is).
 */
export const DEFAULT_PRODUCT_NAME = 'Amazon to eBay Automation';

/** The product's name as the server configures it. */
export function useProductName(): string {
  return useAppConfig().data?.productName ?? DEFAULT_PRODUCT_NAME;
}

/** A tel: link for a phone number as an operator writes it ("+1 (555) 010-0199"). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`;
}
