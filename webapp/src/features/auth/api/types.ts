export type User = {
  id: string;
  email: string;
  isVerified: boolean;
};

export type AuthResponse = {
  token: string;
  user: User;
  message?: string;
};

export type MessageResponse = { message: string };
