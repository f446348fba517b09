// The only file that includes libxml2. Swift reaches libxml2 through this module alone, and
// only Sources/TripDocPlist/XMLChunkParser.swift calls it to read (XMLParseFloor.swift, beside
// it, times libxml2's parse alone for the benchmark, through XMLChunkParser's context).
#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H

// Debian's libxml2 headers pull in the system ICU, whose types clash with the toolchain's
// _FoundationICU when Foundation is imported in the same compile. We do not use libxml2's ICU
// support, so turn it off before the other headers see it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlerror.h>
#include <libxml/SAX2.h>
#include <stdint.h>

// `xmlFree` is a mutable global function pointer, which Swift 6 will not call.
static inline void CLibXML2_free(void *pointer) { xmlFree(pointer); }

// An external entity loader that loads nothing: no file, no network, ever.
static xmlParserInputPtr CLibXML2_denyExternalEntity(const char *url, const char *id, xmlParserCtxtPtr context) {
    (void)url; (void)id; (void)context;
    return NULL;
}

static inline void CLibXML2_installDenyingEntityLoader(void) {
    xmlSetExternalEntityLoader(CLibXML2_denyExternalEntity);
}

// Whether the parser stands at the `/>` of the start tag it just reported: the element is empty.
static inline int CLibXML2_atEmptyElementEnd(xmlParserCtxtPtr context) {
    return context != NULL && context->input != NULL && context->input->cur != NULL
        && context->input->cur[0] == '/' && context->input->cur[1] == '>';
}

// How far into its input the parser stands, in bytes: what it has consumed and moved past, plus
// its place in the current buffer. (`xmlByteConsumed` gives the same for UTF-8 input, but it
// re-encodes the rest of the buffer to count it whenever an encoding handler is set.)
static inline long CLibXML2_offset(xmlParserCtxtPtr context) {
    if (context == NULL || context->input == NULL || context->input->cur == NULL) return 0;
    return (long)context->input->consumed + (long)(context->input->cur - context->input->base);
}

// Where `bytes`, which the parser has just reported, start in the document, when they lie in
// the parser's own input buffer (a plain run of text, reported in place); -1 when they do not
// (text the parser decoded into a buffer of its own).
static inline long CLibXML2_offsetInInput(xmlParserCtxtPtr context, const xmlChar *bytes) {
    if (context == NULL || context->input == NULL || context->input->base == NULL || bytes == NULL) return -1;
    // Compared as numbers: `bytes` may point into another object (a buffer of the parser's own).
    uintptr_t base = (uintptr_t)context->input->base;
    uintptr_t end = (uintptr_t)context->input->end;
    uintptr_t at = (uintptr_t)bytes;
    if (at < base || at >= end) return -1;
    return (long)context->input->consumed + (long)(at - base);
}

#endif
