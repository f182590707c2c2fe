"""The admin: users with their licence, serial batches, serials (revocable) and attempts."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest

from accounts import licensing
from accounts.models import RedemptionAttempt, Serial, SerialBatch, SignUp, User


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (
            "Profile and trial",
            {"fields": ("display_name", "public_id", "email_confirmed", "trial_games_used")},
        ),
        # An address that bounced is flagged here too; clearing the flag resumes the turn mail.
        ("Turn mail", {"fields": ("turn_mail", "time_zone", "email_bounced")}),
    )
    readonly_fields = ("public_id",)
    list_display = (
        "username",
        "display_name",
        "email",
        "email_confirmed",
        "trial_games_used",
        "is_staff",
        "date_joined",
    )
    search_fields = ("username", "display_name", "email")


class _BatchCounts(TypedDict):
    serial_count: int
    redeemed_count: int
    revoked_count: int


if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    CountedBatch = WithAnnotations[SerialBatch, _BatchCounts]


@admin.register(SerialBatch)
class SerialBatchAdmin(admin.ModelAdmin[SerialBatch]):
    list_display = ("name", "created_at", "serial_count", "redeemed_count", "revoked_count")
    search_fields = ("name",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[CountedBatch]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                serial_count=Count("serials"),
                redeemed_count=Count("serials", filter=Q(serials__redeemed_by__isnull=False)),
                revoked_count=Count("serials", filter=Q(serials__revoked_at__isnull=False)),
            )
        )

    @admin.display(ordering="serial_count", description="serials")
    def serial_count(self, batch: CountedBatch) -> int:
        return batch.serial_count

    @admin.display(ordering="redeemed_count", description="redeemed")
    def redeemed_count(self, batch: CountedBatch) -> int:
        return batch.redeemed_count

    @admin.display(ordering="revoked_count", description="revoked")
    def revoked_count(self, batch: CountedBatch) -> int:
        return batch.revoked_count


@admin.register(Serial)
class SerialAdmin(admin.ModelAdmin[Serial]):
    list_display = ("last4", "batch", "redeemed_by", "redeemed_at", "revoked_at")
    list_filter = (
        "batch",
        ("redeemed_by", admin.EmptyFieldListFilter),
        ("revoked_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("last4", "redeemed_by__username", "redeemed_by__email", "batch__name")
    readonly_fields = ("batch", "last4", "created_at", "redeemed_by", "redeemed_at", "revoked_at")
    list_select_related = ("batch", "redeemed_by")
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # serials are minted with `manage.py mint_serials`, never typed in

    @admin.action(description="Revoke the selected serials (their accounts fall back to trial)")
    def revoke(self, request: HttpRequest, queryset: QuerySet[Serial]) -> None:
        count = 0
        for serial in queryset.filter(revoked_at__isnull=True):
            licensing.revoke_serial(serial=serial)
            count += 1
        self.message_user(request, f"Revoked {count} serial(s).", messages.SUCCESS)


@admin.register(RedemptionAttempt)
class RedemptionAttemptAdmin(admin.ModelAdmin[RedemptionAttempt]):
    list_display = ("created_at", "user", "client_ip", "client_network", "outcome")
    list_filter = ("outcome",)
    search_fields = ("user__username", "client_ip")
    list_select_related = ("user",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: RedemptionAttempt | None = None
    ) -> bool:
        return False


@admin.register(SignUp)
class SignUpAdmin(admin.ModelAdmin[SignUp]):
    """Sign-ups per address, as the daily limit counts them (read only)."""

    list_display = ("created_at", "user", "client_ip", "client_network")
    search_fields = ("client_ip", "client_network", "user__username")
    list_select_related = ("user",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: SignUp | None = None) -> bool:
        return False
