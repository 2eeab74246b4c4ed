export type User = {
  id: string;
  email: string;
  isVerified: boolean;
  /** Support staff, who see the staff console; the API answers 404 to everyone else there. */
  isStaff: boolean;
};

export type AuthResponse = {
  token: string;
  user: User;
  message?: string;
};

export type MessageResponse = { message: string };
