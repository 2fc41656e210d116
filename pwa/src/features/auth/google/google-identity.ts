/**
 * The little of Google Identity Services (GIS) we use, typed by hand: the script is loaded
 * at run time from Google, only on /auth/login-with-google and only when a client id exists.
 */
type IdConfiguration = {
  client_id: string;
  ux_mode?: 'popup' | 'redirect';
  login_uri?: string;
  callback?: (response: { credential: string }) => void;
};
type ButtonOptions = {
  type?: 'standard' | 'icon';
  theme?: 'outline' | 'filled_blue';
  size?: 'large' | 'medium';
  text?: 'signin_with' | 'signup_with';
};
export type GoogleIdentity = {
  accounts: {
    id: {
      initialize(config: IdConfiguration): void;
      renderButton(parent: HTMLElement, options: ButtonOptions): void;
    };
  };
};

declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

// Google's published address for the GIS client; there is nothing of ours to configure here.
const GIS_SCRIPT_SRC = 'https://accounts.google.com/gsi/client';
let loading: Promise<GoogleIdentity> | null = null;

/** Adds the GIS script once per page; later calls share the same promise. */
export function loadGoogleIdentity(): Promise<GoogleIdentity> {
  loading ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GIS_SCRIPT_SRC;
    script.async = true;
    script.onload = () =>
      window.google
        ? resolve(window.google)
        : reject(new Error('GIS loaded without google.accounts'));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error('GIS could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}
