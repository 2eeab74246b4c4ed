/** How a payment form reports its outcome; each page picks its toasts. */
export type PaymentCallbacks = {
  /** Called after a confirmed payment, before going to returnPath. */
  onSucceeded: () => void;
  /** The provider declined; its message if it gave one. */
  onFailed: (providerMessage?: string) => void;
  /** Anything else went wrong. */
  onError: () => void;
};

export type PaymentFormProps = PaymentCallbacks & {
  clientSecret: string;
  /** Where the payment returns on success (spec section 7 return addresses). */
  returnPath: string;
  submitLabel: string;
  onCancel?: () => void;
};
