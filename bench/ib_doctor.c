// SPDX-License-Identifier: BSD-2-Clause
/*
 * ib_doctor - RDMA preflight: finds the settings that make traffic
 * silently fall back or slow down (see doctor/doctor.h), with a fix each.
 */
#include "doctor/doctor.h"

int main(int argc, char **argv)
{
	return doctor_main(argc, argv);
}
