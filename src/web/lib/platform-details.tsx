/**
 * Whether the screens below may name the agency's voice platform and its terms (its name,
 * "Pathway", its header names). The platform is the agency's supplier: a client sees it only when
 * the agency turns `showPlatformDetails` on for it, so the client's pages set this from the
 * session (RequireClient). Everywhere else (the agency's own views, the public demo) shows SPEC's
 * texts, which name it: the default is true.
 */
import { createContext, type ReactNode, useContext } from 'react';

const PlatformDetailsContext = createContext(true);

export function PlatformDetailsProvider({ show, children }: { show: boolean; children: ReactNode }) {
  return <PlatformDetailsContext.Provider value={show}>{children}</PlatformDetailsContext.Provider>;
}

/** True when the platform may be named here. */
export function useShowPlatformDetails(): boolean {
  return useContext(PlatformDetailsContext);
}

/** The name of the "pathway" term when the platform's own words may not be used. */
export function pathwayWords(show: boolean) {
  return show
    ? { label: 'Pathway', all: 'All Pathways', none: 'No pathway', lower: 'pathway' }
    : { label: 'Call type', all: 'All call types', none: 'No call type', lower: 'call type' };
}
