/* The wl_interface descriptions of the protocols in protocols/ (generated *-protocol.c beside
   this folder). Declared by the server and client headers of the glue targets. */
#ifndef STRATA_PROTOCOL_CODE_H
#define STRATA_PROTOCOL_CODE_H
#endif
