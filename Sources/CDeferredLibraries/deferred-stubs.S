/* One stub per function of deferred-symbols.inc (see include/strata-deferred.h): it jumps to the
 * function's address in strata_deferred_slots; while that is zero, to strata_deferred_resolve
 * with every argument register saved, then to the address it returns. The stubs are hidden: they
 * stand in for the libraries' functions inside this binary only. */
#if defined(__x86_64__)

	.macro DEFERRED_STUB name, index
	.text
	.globl \name
	.hidden \name
	.type \name, @function
	.p2align 4
\name:
	movq strata_deferred_slots+8*\index(%rip), %r11
	testq %r11, %r11
	jz 1f
	jmpq *%r11
1:	movl $\index, %r11d
	jmp strata_deferred_first_call
	.size \name, .-\name
	.endm

	.text
	.p2align 4
	.type strata_deferred_first_call, @function
/* %r11: the function's index. The caller's arguments are in %rdi %rsi %rdx %rcx %r8 %r9,
 * %xmm0-7 and %al (a variadic call's vector count), and on the stack past the return address. */
strata_deferred_first_call:
	pushq %rbp
	movq %rsp, %rbp
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %r8
	pushq %r9
	pushq %rax
	subq $136, %rsp
	movdqu %xmm0, 0(%rsp)
	movdqu %xmm1, 16(%rsp)
	movdqu %xmm2, 32(%rsp)
	movdqu %xmm3, 48(%rsp)
	movdqu %xmm4, 64(%rsp)
	movdqu %xmm5, 80(%rsp)
	movdqu %xmm6, 96(%rsp)
	movdqu %xmm7, 112(%rsp)
	movq %r11, %rdi
	call strata_deferred_resolve
	movq %rax, %r11
	movdqu 0(%rsp), %xmm0
	movdqu 16(%rsp), %xmm1
	movdqu 32(%rsp), %xmm2
	movdqu 48(%rsp), %xmm3
	movdqu 64(%rsp), %xmm4
	movdqu 80(%rsp), %xmm5
	movdqu 96(%rsp), %xmm6
	movdqu 112(%rsp), %xmm7
	addq $136, %rsp
	popq %rax
	popq %r9
	popq %r8
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
	popq %rbp
	jmpq *%r11
	.size strata_deferred_first_call, .-strata_deferred_first_call

#elif defined(__aarch64__)

	.macro DEFERRED_STUB name, index
	.text
	.globl \name
	.hidden \name
	.type \name, %function
	.p2align 2
\name:
	adrp x16, strata_deferred_slots+8*\index
	ldr x16, [x16, :lo12:strata_deferred_slots+8*\index]
	cbz x16, 1f
	br x16
1:	mov x17, #\index
	b strata_deferred_first_call
	.size \name, .-\name
	.endm

	.text
	.p2align 2
	.type strata_deferred_first_call, %function
/* x17: the function's index. Arguments in x0-x7, x8 (indirect result), q0-q7. */
strata_deferred_first_call:
	stp x29, x30, [sp, #-224]!
	mov x29, sp
	stp x0, x1, [sp, #16]
	stp x2, x3, [sp, #32]
	stp x4, x5, [sp, #48]
	stp x6, x7, [sp, #64]
	str x8, [sp, #80]
	stp q0, q1, [sp, #96]
	stp q2, q3, [sp, #128]
	stp q4, q5, [sp, #160]
	stp q6, q7, [sp, #192]
	mov x0, x17
	bl strata_deferred_resolve
	mov x16, x0
	ldp x0, x1, [sp, #16]
	ldp x2, x3, [sp, #32]
	ldp x4, x5, [sp, #48]
	ldp x6, x7, [sp, #64]
	ldr x8, [sp, #80]
	ldp q0, q1, [sp, #96]
	ldp q2, q3, [sp, #128]
	ldp q4, q5, [sp, #160]
	ldp q6, q7, [sp, #192]
	ldp x29, x30, [sp], #224
	br x16
	.size strata_deferred_first_call, .-strata_deferred_first_call

#else
#error "CDeferredLibraries has stubs for x86_64 and aarch64 only"
#endif

	.hidden strata_deferred_slots
	.hidden strata_deferred_resolve

#define DEFERRED_LIBRARY(index, name)
#define DEFERRED(library, name) DEFERRED_STUB name, __COUNTER__
#include "deferred-symbols.inc"

	.section .note.GNU-stack, "", %progbits
