/**
 * A loopback port nothing listens on: 2, below 1024 (so no unprivileged server and no ephemeral
 * port takes it) and not on fetch's list of blocked ports (1 is: fetch refuses it as a "bad port"
 * before connecting). A port opened and closed again will not do: it is in the ephemeral range,
 * where a server of a test running beside this one, or the source side of an outgoing connection,
 * can take it in the meantime — a connection to it was then reset instead of refused.
 */
export const CLOSED_PORT = 2;
