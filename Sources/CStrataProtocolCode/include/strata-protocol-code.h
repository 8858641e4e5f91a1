/* The wl_interface descriptions of the protocols in protocols/: the WaylandScanner plugin
   generates a <name>-protocol.c for each at build time. Declared by the server and client
   headers of the glue targets. */
#ifndef STRATA_PROTOCOL_CODE_H
#define STRATA_PROTOCOL_CODE_H
#endif
