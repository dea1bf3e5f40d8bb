from django.contrib import admin
from django.urls import include, path

from accounts import sign_out
from accounts import views as account_views
from accounts.outbox_view import outbox_page

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("account/", account_views.account, name="account"),
    path("account/sign-out-everywhere/", sign_out.sign_out_everywhere,
         name="sign_out_everywhere"),
    path("outbox/", outbox_page, name="outbox"),  # only while no mail is configured
    path("", include("ratings.urls")),
    path("", include("tournaments.urls")),  # before games.urls: its catch-all /api/
    path("", include("games.urls")),
]

# A server error's page needs nothing that may be what failed (config/errors.py).
handler500 = "config.errors.server_error"
